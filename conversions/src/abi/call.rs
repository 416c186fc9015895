//! Call sequences (seed 003 "Lowering Calls"): the block `llc` emits for
//! one call site, between `{ // callseq N, 0` and `} // callseq N`.
//!
//! ```text
//! .param .align 4 .b8 param0[12];          one declaration per argument,
//! .param .b32 retval0;                     then the result's
//! st.param.b32 [param0], _;                each argument by value parts
//! st.param.b32 [param0+4], _;              (merged into .v2/.v4 where the
//! st.param.b32 [param0+8], _;              alignment allows; sub-32-bit
//! call.uni (retval0), f, (param0);         scalars widened to .b32)
//! ld.param.b32 _, [retval0];               the result by value parts
//! ```
//!
//! An indirect call adds `prototype_N : .callprototype ...` and calls
//! through a register: `call (retval0), %callee, (param0), prototype_N;`.
//! `N` counts the call sequences of the module from 0, in function and
//! block order (`llc` numbers them as it lowers them).
//!
//! What the caller stores mirrors what the callee loads ([`super::prototype`]
//! for the callee side) with two differences: integers under 32 bits are
//! stored as one `.b32` (and the result read back as one), and a `byval`
//! argument is copied into its `.param` by the value parts of the pointee,
//! merged under the parameter's alignment. `llc` drops the loads of result
//! parts nobody uses; the model lists every part.

use super::{
    prototype::{pass_as_array, scalar_bits},
    schedule, value_parts, AbiError, Access, DataLayout, FunctionSignature, Target,
};

/// How a call reaches its callee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Callee {
    /// A direct call of the function with this PTX symbol.
    Direct(String),
    /// A call through a pointer (`.callprototype`).
    Indirect,
}

/// One `.param` of a call sequence and the stores into it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallParam {
    /// `.param .b32 param0`, `.param .align 16 .b8 param1[32]`.
    pub declaration: String,
    /// The `st.param` accesses, by offset.
    pub stores: Vec<Access>,
}

/// The `retval0` of a call sequence and the loads from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    /// `.param .b32 retval0`, `.param .align 8 .b8 retval0[16]`.
    pub declaration: String,
    /// The `ld.param` accesses, by offset.
    pub loads: Vec<Access>,
}

/// The call sequence `llc` emits for one call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSequence {
    /// The sequence number (`callseq N`, `prototype_N`).
    pub id: usize,
    /// The callee.
    pub callee: Callee,
    /// The arguments' `.param`s (the variadic buffer pointer last).
    pub params: Vec<CallParam>,
    /// The result's `retval0`, for a non-void call.
    pub result: Option<CallResult>,
    /// `prototype_N : .callprototype ...;` for an indirect call.
    pub prototype: Option<String>,
}

/// `.b32` for one scalar `.param` of `bits` bits.
fn scalar(bits: u64) -> Access {
    Access { offset: 0, vector: 1, bits }
}

impl CallSequence {
    /// The call sequence of a call whose callee, as the call site sees it, is
    /// `site` (argument types from the call, attributes from the call and a
    /// direct callee, linkage of a direct callee). `id` is its number in the
    /// module.
    pub fn new(
        site: &FunctionSignature,
        callee: Callee,
        id: usize,
        layout: &DataLayout,
        target: &Target,
    ) -> Result<Self, AbiError> {
        let mut params = Vec::with_capacity(site.params.len() + usize::from(site.variadic));
        let mut shapes = Vec::with_capacity(params.capacity());
        for (index, param) in site.params.iter().enumerate() {
            let name = format!("param{index}");
            let (shape, stores) = match &param.byval {
                Some(pointee) => {
                    let align = site.param_align(layout, index);
                    let size = layout.alloc_size(pointee);
                    (array_shape(align, size), schedule(&value_parts(layout, pointee, target)?, align, target))
                }
                None if pass_as_array(&param.ty) => {
                    let align = site.param_align(layout, index);
                    let size = layout.alloc_size(&param.ty);
                    if size == 0 {
                        return Err(AbiError::Unsupported {
                            ty: param.ty.to_string(),
                            reason: "llc rejects empty parameter types".into(),
                        });
                    }
                    (array_shape(align, size), schedule(&value_parts(layout, &param.ty, target)?, align, target))
                }
                None => {
                    let bits = scalar_bits(layout, &param.ty)?;
                    (format!(".param .b{bits} _"), vec![scalar(bits)])
                }
            };
            params.push(CallParam { declaration: shape.replacen('_', &name, 1), stores });
            shapes.push(shape);
        }
        if site.variadic {
            // LLVM 22 passes the variadic arguments in a local buffer and
            // its address as one more parameter.
            let bits = layout.pointer_bits(0);
            let name = format!("param{}", site.params.len());
            params.push(CallParam { declaration: format!(".param .b{bits} {name}"), stores: vec![scalar(bits)] });
            shapes.push(format!(".param .b{bits} _"));
        }
        let mut result_shape = None;
        let result = match &site.result {
            None => None,
            Some(ty) if pass_as_array(ty) => {
                let align = site.result_align(layout).unwrap_or(1);
                let shape = array_shape(align, layout.alloc_size(ty));
                let loads = schedule(&value_parts(layout, ty, target)?, align, target);
                let declaration = shape.replacen('_', "retval0", 1);
                result_shape = Some(shape);
                Some(CallResult { declaration, loads })
            }
            Some(ty) => {
                // Unlike the callee's `func_retval0` (a generic pointer's
                // width), the caller's `retval0` has the pointer's own width.
                let bits = scalar_bits(layout, ty)?;
                result_shape = Some(format!(".param .b{bits} _"));
                Some(CallResult { declaration: format!(".param .b{bits} retval0"), loads: vec![scalar(bits)] })
            }
        };
        let prototype = (callee == Callee::Indirect).then(|| {
            let returns = match &result_shape {
                Some(shape) => format!("({shape}) _"),
                None => "()_".to_string(),
            };
            format!("prototype_{id} : .callprototype {returns} ({});", shapes.join(", "))
        });
        for param in &mut params {
            param.stores.sort();
        }
        let mut result = result;
        if let Some(result) = &mut result {
            result.loads.sort();
        }
        Ok(CallSequence { id, callee, params, result, prototype })
    }

    /// The `call` line: `call.uni (retval0), f, (param0, param1);` or, for
    /// an indirect call, `call (retval0), %callee, (param0), prototype_3;`.
    pub fn call_line(&self) -> String {
        let returns = if self.result.is_some() { "(retval0), " } else { "" };
        let arguments: Vec<String> = (0..self.params.len()).map(|i| format!("param{i}")).collect();
        let arguments = arguments.join(", ");
        match &self.callee {
            Callee::Direct(symbol) => format!("call.uni {returns}{symbol}, ({arguments});"),
            Callee::Indirect => format!("call {returns}%callee, ({arguments}), prototype_{};", self.id),
        }
    }

    /// The sequence as PTX lines (registers shown as `_`): declarations,
    /// stores, prototype, call, loads.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.params.iter().map(|p| format!("{};", p.declaration)).collect();
        if let Some(result) = &self.result {
            lines.push(format!("{};", result.declaration));
        }
        for (index, param) in self.params.iter().enumerate() {
            for access in &param.stores {
                lines.push(format!(
                    "st.param{} [{}], {};",
                    access.suffix(),
                    access.address(&format!("param{index}")),
                    access.registers()
                ));
            }
        }
        lines.extend(self.prototype.clone());
        lines.push(self.call_line());
        if let Some(result) = &self.result {
            for access in &result.loads {
                lines.push(format!(
                    "ld.param{} {}, [{}];",
                    access.suffix(),
                    access.registers(),
                    access.address("retval0")
                ));
            }
        }
        lines
    }
}

/// `.param .align A .b8 _[size]`, the name to be filled in.
fn array_shape(align: u64, size: u64) -> String {
    format!(".param .align {align} .b8 _[{size}]")
}

impl Access {
    /// `.v2.b32`.
    pub fn suffix(&self) -> String {
        if self.vector > 1 {
            format!(".v{}.b{}", self.vector, self.bits)
        } else {
            format!(".b{}", self.bits)
        }
    }

    /// `param0+8` (`param0` at offset 0).
    pub fn address(&self, symbol: &str) -> String {
        if self.offset == 0 {
            symbol.to_string()
        } else {
            format!("{symbol}+{}", self.offset)
        }
    }

    /// `_` or `{_, _}`: the registers, unnamed.
    pub fn registers(&self) -> String {
        if self.vector > 1 {
            format!("{{{}}}", vec!["_"; self.vector as usize].join(", "))
        } else {
            "_".to_string()
        }
    }
}
