//! ptxcc in a compiler's own melior `PassManager`: load the dialects, add
//! the pipeline with typed options, run it and print the result.
//!
//! `cargo run --example lower_module`

use melior::{ir::Module, pass::PassManager, Context};
use ptxcc::PipelineOptions;

/// A kernel that takes `struct { float k; float v[8]; }` by value (a `byval`
/// pointer, as clang passes it) and reads `v[i]` and `k`.
const KERNEL: &str = r#"
llvm.func ptx_kernelcc @scale(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, array<8 x f32>)>, llvm.align = 4 : i64},
                              %out: !llvm.ptr<1>, %i: i32) {
  %p = llvm.getelementptr %s[0, 1, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(f32, array<8 x f32>)>
  %v = llvm.load %p : !llvm.ptr -> f32
  %k = llvm.load %s : !llvm.ptr -> f32
  %r = llvm.fmul %v, %k : f32
  llvm.store %r, %out : f32, !llvm.ptr<1>
  llvm.return
}
"#;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Your compiler's context: ptxcc adds the dialects it needs.
    let context = Context::new();
    ptxcc::prepare_context(&context)?;
    let mut module = Module::parse(&context, KERNEL).ok_or("the kernel does not parse")?;

    // The whole lowering, for sm_80; or single passes with
    // `ptxcc::create_lower_struct_args_pass(&options)` and friends.
    let mut options = PipelineOptions::default();
    options.lower.target.chip = "sm_80".into();
    let pm = PassManager::new(&context);
    ptxcc::add_pipeline(&pm, &options)?;
    pm.run(&mut module)?;

    // Both fields are now read from param space (`!llvm.ptr<101>`): no copy.
    println!("{}", module.as_operation());
    Ok(())
}
