//! PTX prototypes: the `.entry`/`.func` header `llc` prints for a function,
//! and the parameter declarations in it.
//!
//! The rules are those of LLVM 22's `NVPTXAsmPrinter::emitFunctionParamList`
//! and `printReturnValStr`:
//! - names are `<symbol>_param_<N>`, the result is `func_retval0`; local
//!   symbols have characters PTX does not allow replaced by `_$_`;
//! - aggregates, vectors, `byval`, `half`/`bfloat`, `fp128` and integers of
//!   128 bits and more are `.param .align A .b8 NAME[alloc size]`;
//! - kernel pointers are `.param .u64 .ptr [.global|.shared|.const|.local]
//!   .align N` with N from the `align` attribute (1 without); other kernel
//!   scalars are `.param .u<bits>` (`.u8` for `i1`), `.f32`, `.f64`;
//! - device scalars are `.param .b32/.b64/.b128` (integers promoted);
//! - A is the ABI alignment capped at 128, at least 16 for local functions
//!   whose address is not taken, overridden by `alignstack`, and for `byval`
//!   at least the `align` attribute.

use super::{
    layout::FloatKind, schedule, target::ParamSpaceError, value_parts, AbiError, AbiType, Access, DataLayout, Target,
};

/// The linkage facts that change a prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// `external` (`.visible`, or `.extern` for a declaration).
    External,
    /// `internal` or `private`: no directive, alignment may be raised.
    Local,
    /// Anything else (`weak`, `linkonce_odr`, ...): `.weak`.
    Weak,
}

/// One parameter as the ABI sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSignature {
    /// The parameter's type.
    pub ty: AbiType,
    /// The `byval` type, if any.
    pub byval: Option<AbiType>,
    /// The `align` attribute.
    pub align: Option<u64>,
    /// The `alignstack` attribute.
    pub stack_align: Option<u64>,
}

/// What a prototype depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSignature {
    /// The symbol name (before PTX renaming).
    pub name: String,
    /// `.entry` rather than `.func`.
    pub kernel: bool,
    /// Linkage.
    pub linkage: Linkage,
    /// A declaration (no body).
    pub declaration: bool,
    /// Whether the function's address is used other than by direct calls.
    pub address_taken: bool,
    /// The `noreturn` attribute.
    pub no_return: bool,
    /// Variadic (`...`): LLVM 22 passes the variadic part as one extra
    /// pointer parameter.
    pub variadic: bool,
    /// The result type (`None` for `void`).
    pub result: Option<AbiType>,
    /// The parameters.
    pub params: Vec<ParamSignature>,
}

impl FunctionSignature {
    /// The symbol `llc` prints: local symbols have every character other
    /// than letters, digits, `_` and `$` replaced by `_$_`.
    pub fn symbol(&self) -> String {
        if self.linkage != Linkage::Local {
            return self.name.clone();
        }
        // Byte by byte, as LLVM: a non-ASCII character becomes several `_$_`.
        let mut out = String::with_capacity(self.name.len());
        for byte in self.name.bytes() {
            if byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$' {
                out.push(char::from(byte));
            } else {
                out.push_str("_$_");
            }
        }
        out
    }

    /// Name of parameter `index` (`k_param_0`).
    pub fn param_name(&self, index: usize) -> String {
        format!("{}_param_{index}", self.symbol())
    }

    /// Whether alignment may be raised to 16 (a local function nobody can
    /// call through a pointer).
    fn promotable(&self) -> bool {
        self.linkage == Linkage::Local && !self.address_taken && !self.kernel
    }

    /// `getFunctionParamOptimizedAlign`: the ABI alignment capped at 128,
    /// at least 16 for a promotable function.
    pub fn optimized_align(&self, layout: &DataLayout, ty: &AbiType) -> u64 {
        let abi = layout.abi_align(ty).min(128);
        if self.promotable() {
            abi.max(16)
        } else {
            abi
        }
    }

    /// The alignment of the `.param` array of parameter `index` (for
    /// array-passed and byval parameters).
    pub fn param_align(&self, layout: &DataLayout, index: usize) -> u64 {
        let param = &self.params[index];
        match &param.byval {
            Some(pointee) if !self.kernel => param.align.unwrap_or(1).max(self.optimized_align(layout, pointee)),
            Some(pointee) => match param.stack_align {
                Some(stack) => stack,
                None => self.optimized_align(layout, pointee).max(param.align.unwrap_or(1)),
            },
            None => param.stack_align.unwrap_or_else(|| self.optimized_align(layout, &param.ty)),
        }
    }

    /// The `ld.param` accesses with which the function reads parameter
    /// `index` (a device function's non-byval parameter): its value parts,
    /// merged under the parameter's alignment (`getFunctionArgumentAlignment`).
    pub fn argument_accesses(
        &self,
        layout: &DataLayout,
        index: usize,
        target: &Target,
    ) -> Result<Vec<Access>, AbiError> {
        let ty = &self.params[index].ty;
        let align = if pass_as_array(ty) { self.param_align(layout, index) } else { layout.abi_align(ty) };
        Ok(schedule(&value_parts(layout, ty, target)?, align, target))
    }

    /// The `st.param` accesses with which the function writes its result:
    /// integers under 32 bits as one `.b32`, anything else by parts merged
    /// under the optimized alignment (`LowerReturn` ignores `alignstack`).
    pub fn result_accesses(&self, layout: &DataLayout, target: &Target) -> Result<Vec<Access>, AbiError> {
        let Some(result) = &self.result else { return Ok(Vec::new()) };
        if let AbiType::Int(bits) = result {
            if *bits < 32 {
                return Ok(vec![Access { offset: 0, vector: 1, bits: 32 }]);
            }
        }
        Ok(schedule(&value_parts(layout, result, target)?, self.optimized_align(layout, result), target))
    }

    /// The alignment of `func_retval0` when it is an array (MLIR has no
    /// `alignstack` on results, so the optimized alignment).
    pub fn result_align(&self, layout: &DataLayout) -> Option<u64> {
        let result = self.result.as_ref()?;
        Some(self.optimized_align(layout, result))
    }

    /// Total `.param` bytes of the parameters (each placed at its
    /// alignment), what a kernel's launch must fit in the target's limit.
    pub fn param_bytes(&self, layout: &DataLayout) -> Result<u64, AbiError> {
        let mut total = 0u64;
        for index in 0..self.params.len() {
            let (size, align) = self.param_footprint(layout, index)?;
            total = super::layout::align_to(total, align).saturating_add(size);
        }
        Ok(total)
    }

    /// Size and alignment of parameter `index` in `.param` space.
    pub fn param_footprint(&self, layout: &DataLayout, index: usize) -> Result<(u64, u64), AbiError> {
        let param = &self.params[index];
        if let Some(pointee) = &param.byval {
            return Ok((layout.alloc_size(pointee), self.param_align(layout, index)));
        }
        if pass_as_array(&param.ty) {
            return Ok((layout.alloc_size(&param.ty), self.param_align(layout, index)));
        }
        let bytes = match (&param.ty, self.kernel) {
            (AbiType::Int(bits), false) => promote_bits(u64::from(*bits)) / 8,
            (ty, _) => layout.store_size(ty),
        };
        Ok((bytes, bytes.max(1)))
    }

    /// The declaration of parameter `index` as `llc` prints it (without the
    /// leading tab).
    pub fn param_declaration(&self, layout: &DataLayout, index: usize) -> Result<String, AbiError> {
        let param = &self.params[index];
        let name = self.param_name(index);
        if let Some(pointee) = &param.byval {
            let size = layout.alloc_size(pointee);
            return Ok(format!(".param .align {} .b8 {name}[{size}]", self.param_align(layout, index)));
        }
        let ty = &param.ty;
        if pass_as_array(ty) {
            let size = layout.alloc_size(ty);
            if size == 0 {
                return Err(AbiError::Unsupported {
                    ty: ty.to_string(),
                    reason: "llc rejects empty parameter types".into(),
                });
            }
            return Ok(format!(".param .align {} .b8 {name}[{size}]", self.param_align(layout, index)));
        }
        if self.kernel {
            return Ok(match ty {
                AbiType::Ptr(space) => {
                    let qualifier = match space {
                        1 => " .global",
                        3 => " .shared",
                        4 => " .const",
                        5 => " .local",
                        _ => "",
                    };
                    let bits = layout.pointer_bits(*space);
                    format!(".param .u{bits} .ptr{qualifier} .align {} {name}", param.align.unwrap_or(1))
                }
                AbiType::Int(1) => format!(".param .u8 {name}"),
                AbiType::Int(bits) => format!(".param .u{bits} {name}"),
                AbiType::Float(FloatKind::Float) => format!(".param .f32 {name}"),
                AbiType::Float(FloatKind::Double) => format!(".param .f64 {name}"),
                other => return Err(unsupported(other)),
            });
        }
        Ok(format!(".param .b{} {name}", scalar_bits(layout, ty)?))
    }

    /// The result declaration: ` (.param .b32 func_retval0) ` or empty.
    pub fn result_declaration(&self, layout: &DataLayout) -> Result<String, AbiError> {
        let Some(result) = &self.result else { return Ok(String::new()) };
        if pass_as_array(result) {
            let align = self.result_align(layout).unwrap_or(1);
            let size = layout.alloc_size(result);
            return Ok(format!(" (.param .align {align} .b8 func_retval0[{size}]) "));
        }
        // A pointer result has the size of a generic pointer, whatever its
        // address space (`printReturnValStr` asks for the default pointer).
        let bits = match result {
            AbiType::Ptr(_) => layout.pointer_bits(0),
            other => scalar_bits(layout, other)?,
        };
        Ok(format!(" (.param .b{bits} func_retval0) "))
    }

    /// Every parameter declaration, the variadic pointer included.
    fn declarations(&self, layout: &DataLayout) -> Result<Vec<String>, AbiError> {
        let mut lines =
            (0..self.params.len()).map(|i| self.param_declaration(layout, i)).collect::<Result<Vec<_>, _>>()?;
        if self.variadic {
            let name = self.param_name(self.params.len());
            lines.push(format!(".param .b{} {name}", layout.pointer_bits(0)));
        }
        Ok(lines)
    }

    fn linkage_directive(&self) -> &'static str {
        match (self.linkage, self.declaration) {
            (Linkage::External, true) => ".extern ",
            (Linkage::External, false) => ".visible ",
            (Linkage::Local, _) => "",
            (Linkage::Weak, _) => ".weak ",
        }
    }

    fn head(&self, layout: &DataLayout) -> Result<String, AbiError> {
        Ok(if self.kernel {
            format!("{}.entry {}", self.linkage_directive(), self.symbol())
        } else {
            format!("{}.func {}{}", self.linkage_directive(), self.result_declaration(layout)?, self.symbol())
        })
    }

    /// `.noreturn` is printed for `noreturn` device functions returning
    /// `void`, on PTX 6.4 and later (`shouldEmitPTXNoReturn`).
    fn prints_no_return(&self, no_return_directive: bool) -> bool {
        self.no_return && !self.kernel && self.result.is_none() && no_return_directive
    }

    /// The header of the function's definition, line by line, exactly as
    /// `llc -mtriple=nvptx64-nvidia-cuda` prints it (comments aside; kernel
    /// directives such as `.maxntid` that follow it are not modelled).
    /// `no_return_directive` is whether the target prints `.noreturn`
    /// (PTX 6.4 and later).
    pub fn definition(&self, layout: &DataLayout, no_return_directive: bool) -> Result<Vec<String>, AbiError> {
        // `name(` then the list, or `name()` on one line.
        let mut lines = self.parameter_list(layout)?;
        let head = self.head(layout)?;
        lines[0] = format!("{head}{}", lines[0]);
        if self.prints_no_return(no_return_directive) {
            lines.push(".noreturn".to_string());
        }
        Ok(lines)
    }

    /// The forward declaration `llc` prints for a called declaration (or a
    /// function used before its definition), ending in `;`.
    pub fn declaration_lines(&self, layout: &DataLayout, no_return_directive: bool) -> Result<Vec<String>, AbiError> {
        // `name`, then the list on lines of its own.
        let mut lines = vec![self.head(layout)?];
        lines.extend(self.parameter_list(layout)?);
        lines.push(if self.prints_no_return(no_return_directive) { ".noreturn;" } else { ";" }.to_string());
        Ok(lines)
    }

    /// `()`, or `(`, one tab-indented declaration per line, `)`.
    fn parameter_list(&self, layout: &DataLayout) -> Result<Vec<String>, AbiError> {
        let declarations = self.declarations(layout)?;
        if declarations.is_empty() {
            return Ok(vec!["()".to_string()]);
        }
        let last = declarations.len() - 1;
        let mut lines = vec!["(".to_string()];
        for (i, declaration) in declarations.into_iter().enumerate() {
            lines.push(format!("\t{declaration}{}", if i == last { "" } else { "," }));
        }
        lines.push(")".to_string());
        Ok(lines)
    }
}

/// `shouldPassAsArray`: aggregates, vectors, `half`, `bfloat` and scalars
/// of 128 bits or more travel as `.b8` arrays.
pub fn pass_as_array(ty: &AbiType) -> bool {
    match ty {
        AbiType::Struct(_) | AbiType::Array(..) | AbiType::Vector(..) => true,
        AbiType::Float(kind) => matches!(kind, FloatKind::Half | FloatKind::BFloat) || kind.bits() >= 128,
        AbiType::Int(bits) => *bits >= 128,
        AbiType::Ptr(_) => false,
    }
}

/// `promoteScalarArgumentSize`: 32, 64 or 128 bits for scalars up to that.
pub fn promote_bits(bits: u64) -> u64 {
    match bits {
        0..=32 => 32,
        33..=64 => 64,
        65..=128 => 128,
        other => other,
    }
}

/// Width of a scalar `.param .b<N>` for a device function or a result.
pub(crate) fn scalar_bits(layout: &DataLayout, ty: &AbiType) -> Result<u64, AbiError> {
    match ty {
        AbiType::Int(bits) => Ok(promote_bits(u64::from(*bits))),
        AbiType::Ptr(space) => Ok(layout.pointer_bits(*space)),
        AbiType::Float(FloatKind::Float) => Ok(32),
        AbiType::Float(FloatKind::Double) => Ok(64),
        other => Err(unsupported(other)),
    }
}

fn unsupported(ty: &AbiType) -> AbiError {
    let reason = match ty {
        AbiType::Float(FloatKind::X86Fp80) => "NVPTX has no x86_fp80",
        _ => "llc cannot pass it as a parameter",
    };
    AbiError::Unsupported { ty: ty.to_string(), reason: reason.into() }
}

/// The param-space check of one function (the sizer): `Ok(Some(..))` for a
/// kernel whose parameters need more `.param` space than `target` has.
pub fn check_param_space(
    signature: &FunctionSignature,
    layout: &DataLayout,
    target: &Target,
) -> Result<Option<ParamSpaceError>, AbiError> {
    if !signature.kernel {
        return Ok(None);
    }
    let bytes = signature.param_bytes(layout)?;
    let limit = target.param_limit();
    Ok((bytes > limit).then(|| ParamSpaceError {
        kernel: signature.name.clone(),
        bytes,
        limit,
        target: target.to_string(),
    }))
}
