//! ptxcc lowers the PTX calling convention inside MLIR.
//!
//! It takes LLVM-dialect IR in which kernels and device functions still pass
//! aggregates by value and produces LLVM/NVVM-dialect IR that
//! `mlir-translate --mlir-to-llvmir` and `llc -mtriple=nvptx64-nvidia-cuda`
//! turn into PTX.
//!
//! This crate is the library API: compilers that own a melior [`Context`](melior::Context)
//! and [`PassManager`] use it to load the `ptxcc` dialect and add ptxcc
//! passes, without the `ptxcc-opt` driver.
//!
//! ```
//! use melior::{ir::Module, pass::PassManager, Context};
//! use ptxcc::{ConvertPtxccToLlvmOptions, LowerStructArgsOptions, TargetOptions};
//!
//! // A context of your own: ptxcc adds the dialects it needs and `ptxcc`.
//! let context = Context::new();
//! ptxcc::prepare_context(&context)?;
//!
//! // A kernel that reads field 2, element 3 of its byval struct.
//! let mut module = Module::parse(&context, r#"
//!   llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64},
//!                             %out: !llvm.ptr) {
//!     %q = llvm.getelementptr %s[0, 2, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f64, i8, array<4 x i32>)>
//!     %a3 = llvm.load %q : !llvm.ptr -> i32
//!     llvm.store %a3, %out : i32, !llvm.ptr
//!     llvm.return
//!   }
//! "#).expect("valid IR");
//!
//! // Add passes with typed options (or the whole pipeline with
//! // `ptxcc::add_pipeline(&pm, &PipelineOptions::default())`).
//! let pm = PassManager::new(&context);
//! pm.add_pass(ptxcc::create_lower_struct_args_pass(&LowerStructArgsOptions {
//!     target: TargetOptions { chip: "sm_80".into(), ptx: 0 },
//!     ..Default::default()
//! }));
//! pm.nested_under("llvm.func").add_pass(ptxcc::create_convert_ptxcc_to_llvm_pass(
//!     &ConvertPtxccToLlvmOptions { inline_copy_threshold: 128, ..Default::default() },
//! ));
//! pm.run(&mut module)?;
//!
//! // The field is read from param space at offset 24, and no ptxcc op is left.
//! let text = module.as_operation().to_string();
//! assert!(text.contains("llvm.getelementptr %0[24] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8"), "{text}");
//! assert!(!text.contains("\"ptxcc."));
//!
//! // MLIR GPU compilers nest ptxcc where upstream nests its GPU passes,
//! // under `gpu.module` (host code beside it is left alone); the context
//! // already knows `gpu` and the host dialects.
//! use ptxcc::PipelineOptions;
//! let mut module = Module::parse(&context, r#"
//!   module attributes {gpu.container_module} {
//!     gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
//!       llvm.func @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}, %out: !llvm.ptr)
//!           attributes {gpu.kernel, nvvm.kernel} {
//!         %v = llvm.load %s : !llvm.ptr -> i32
//!         llvm.store %v, %out : i32, !llvm.ptr
//!         llvm.return
//!       }
//!     }
//!   }
//! "#).expect("valid IR");
//!
//! let pm = PassManager::new(&context);
//! // `builtin.module(gpu.module(ptxcc-pipeline))`: a nested pass manager.
//! ptxcc::add_pipeline(&pm.nested_under("gpu.module"), &PipelineOptions::default())?;
//! pm.run(&mut module)?;
//! let text = module.as_operation().to_string();
//! assert!(text.contains("!llvm.ptr<101> -> i32"), "{text}"); // read from param space
//!
//! // A top-level pass manager runs on the module it is given.
//! let mut module = Module::parse(&context, "llvm.func @f() { llvm.return }").expect("valid IR");
//! let pm = PassManager::new(&context);
//! ptxcc::add_pipeline(&pm, &PipelineOptions::default())?;
//! pm.run(&mut module)?;
//!
//! // A pass manager on an op ptxcc's pipeline cannot run on is an error.
//! let pm = PassManager::new(&context);
//! assert!(ptxcc::add_pipeline(&pm.nested_under("llvm.func"), &PipelineOptions::default()).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Pipelines can also be given as text, with ptxcc passes by name:
//! [`register_passes`] then [`parse_pass_pipeline`] with
//! `builtin.module(convert-ptxcc-to-llvm{vector-copy=false},cse)`.

mod context;
pub mod diagnostics;
pub mod llvm;
pub mod nesting;
pub mod opt;
mod passes;
mod pipeline;
pub mod registry;
use ptxcc_shim as shim;
pub mod verify_diagnostics;

pub use context::{create_context, prepare_context, register_dialects};
pub use pipeline::{add_pipeline, anchor_of, AnyPassManager, PipelineOptions};
pub use ptxcc_conversions as conversions;
pub use ptxcc_conversions::{
    lower_struct_args::{create_lower_struct_args_pass, LowerStructArgsOptions},
    options::TargetOptions,
    ptxcc_to_llvm::{create_convert_ptxcc_to_llvm_pass, ConvertPtxccToLlvmOptions},
    OptionError, OptionInfo, PassOptions,
};
pub use ptxcc_dialect as dialect;
pub use registry::{register_passes, register_ptxcc_passes, AddPassError, PassInfo, PASSES};

use melior::pass::PassManager;

/// Errors of the library API.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The `ptxcc` dialect could not be loaded.
    #[error(transparent)]
    Dialect(#[from] ptxcc_dialect::DialectError),
    /// A pass pipeline did not parse (unknown pass, bad option, ...).
    #[error("invalid pass pipeline: {0}")]
    Pipeline(String),
}

/// Parses `text` (MLIR's pipeline syntax, e.g.
/// `builtin.module(convert-ptxcc-to-llvm,cse)`) into `pm`, with every ptxcc
/// pass known by name (see [`register_passes`], called here).
pub fn parse_pass_pipeline(pm: &PassManager, text: &str) -> Result<(), Error> {
    register_passes();
    let result = melior::utility::parse_pass_pipeline(pm.as_operation_pass_manager(), text.trim());
    result.map_err(|error| match error {
        melior::Error::ParsePassPipeline(message) => Error::Pipeline(message.trim().to_string()),
        other => Error::Pipeline(other.to_string()),
    })
}
