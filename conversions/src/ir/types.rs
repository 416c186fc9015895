//! Queries on types the C API offers but melior does not wrap: integer and
//! float kinds, vectors, LLVM structs, arrays and function types.

use melior::ir::{Type, TypeLike};

/// Whether `ty` is an integer, a float, an `!llvm.ptr` or a vector: the
/// cheap kinds that are never LLVM aggregates.
pub fn is_integer_float_pointer_or_vector(ty: Type) -> bool {
    let raw = ty.to_raw();
    // SAFETY: type-kind queries on a live type.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(raw)
            || mlir_sys::mlirTypeIsAFloat(raw)
            || mlir_sys::mlirTypeIsALLVMPointerType(raw)
            || mlir_sys::mlirTypeIsAVector(raw)
    }
}

/// The width of `ty` when it is an integer type.
pub fn integer_width(ty: Type) -> Option<u32> {
    let raw = ty.to_raw();
    // SAFETY: reading a live type after checking its kind.
    unsafe { mlir_sys::mlirTypeIsAInteger(raw).then(|| mlir_sys::mlirIntegerTypeGetWidth(raw)) }
}

/// The kind of a float type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatType {
    /// `bf16`.
    BF16,
    /// `f16`.
    F16,
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// Another float type, of this width in bits.
    Other(u32),
}

/// The kind of `ty` when it is a float type.
pub fn float_type(ty: Type) -> Option<FloatType> {
    let raw = ty.to_raw();
    // SAFETY: kind queries on a live type; the width is read only of a
    // float type.
    unsafe {
        if mlir_sys::mlirTypeIsABF16(raw) {
            Some(FloatType::BF16)
        } else if mlir_sys::mlirTypeIsAF16(raw) {
            Some(FloatType::F16)
        } else if mlir_sys::mlirTypeIsAF32(raw) {
            Some(FloatType::F32)
        } else if mlir_sys::mlirTypeIsAF64(raw) {
            Some(FloatType::F64)
        } else if mlir_sys::mlirTypeIsAFloat(raw) {
            Some(FloatType::Other(mlir_sys::mlirFloatTypeGetWidth(raw)))
        } else {
            None
        }
    }
}

/// A builtin vector type (see [`as_vector`]).
#[derive(Clone, Copy, Debug)]
pub struct VectorType<'c>(Type<'c>);

/// `ty` as a vector type, `None` for any other type.
pub fn as_vector(ty: Type) -> Option<VectorType> {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsAVector(ty.to_raw()) }.then_some(VectorType(ty))
}

impl<'c> VectorType<'c> {
    /// Whether the vector is scalable.
    pub fn is_scalable(self) -> bool {
        // SAFETY: a query on a live vector type.
        unsafe { mlir_sys::mlirVectorTypeIsScalable(self.0.to_raw()) }
    }

    /// The number of dimensions.
    pub fn rank(self) -> i64 {
        // SAFETY: a query on a live vector (shaped) type.
        unsafe { mlir_sys::mlirShapedTypeGetRank(self.0.to_raw()) }
    }

    /// The size of dimension `index`; `None` when the vector has no such
    /// dimension.
    pub fn dimension(self, index: i64) -> Option<i64> {
        // SAFETY: a query on a live vector (shaped) type, in range.
        (0 <= index && index < self.rank())
            .then(|| unsafe { mlir_sys::mlirShapedTypeGetDimSize(self.0.to_raw(), index as isize) })
    }

    /// The element type.
    pub fn element(self) -> Type<'c> {
        // SAFETY: a query on a live vector (shaped) type.
        unsafe { Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(self.0.to_raw())) }
    }
}

/// An `!llvm.struct` type (see [`as_llvm_struct`]).
#[derive(Clone, Copy, Debug)]
pub struct LlvmStructType<'c>(Type<'c>);

/// `ty` as an `!llvm.struct`, `None` for any other type.
pub fn as_llvm_struct(ty: Type) -> Option<LlvmStructType> {
    // SAFETY: a kind query on a live type.
    unsafe { mlir_sys::mlirTypeIsALLVMStructType(ty.to_raw()) }.then_some(LlvmStructType(ty))
}

impl<'c> LlvmStructType<'c> {
    /// Whether the struct is opaque (has no body).
    pub fn is_opaque(self) -> bool {
        // SAFETY: a query on a live struct type.
        unsafe { mlir_sys::mlirLLVMStructTypeIsOpaque(self.0.to_raw()) }
    }

    /// Whether the struct is packed.
    pub fn is_packed(self) -> bool {
        // SAFETY: a query on a live struct type.
        unsafe { mlir_sys::mlirLLVMStructTypeIsPacked(self.0.to_raw()) }
    }

    /// The name of an identified struct, `None` for a literal one.
    pub fn name(self) -> Option<String> {
        let raw = self.0.to_raw();
        // SAFETY: queries on a live struct type; the identifier is read only
        // of an identified (not literal) struct and is owned by the context.
        unsafe {
            (!mlir_sys::mlirLLVMStructTypeIsLiteral(raw)).then(|| {
                let identifier = mlir_sys::mlirLLVMStructTypeGetIdentifier(raw);
                ptxcc_shim::to_string(identifier)
            })
        }
    }

    /// The number of fields.
    pub fn field_count(self) -> usize {
        // SAFETY: a query on a live struct type.
        unsafe { mlir_sys::mlirLLVMStructTypeGetNumElementTypes(self.0.to_raw()) as usize }
    }

    /// The type of field `index`; `None` when the struct has no such field.
    pub fn field(self, index: usize) -> Option<Type<'c>> {
        // SAFETY: a query on a live struct type, in range.
        (index < self.field_count()).then(|| unsafe {
            Type::from_raw(mlir_sys::mlirLLVMStructTypeGetElementType(self.0.to_raw(), index as isize))
        })
    }

    /// The types of the fields, in order.
    pub fn fields(self) -> Vec<Type<'c>> {
        (0..self.field_count()).filter_map(|i| self.field(i)).collect()
    }
}

/// The element type and length of `ty` when it is an `!llvm.array`.
pub fn llvm_array(ty: Type) -> Option<(Type, u64)> {
    let length = ptxcc_shim::array_length(ty.to_raw())?;
    // SAFETY: the shim says this is an LLVM array type.
    Some((unsafe { Type::from_raw(mlir_sys::mlirLLVMArrayTypeGetElementType(ty.to_raw())) }, length))
}

/// `!llvm.void` in the context of `ty`.
pub fn llvm_void_like(ty: Type) -> Type {
    // SAFETY: building the void type in the type's own (live) context.
    unsafe { Type::from_raw(mlir_sys::mlirLLVMVoidTypeGet(mlir_sys::mlirTypeGetContext(ty.to_raw()))) }
}

/// Whether `ty` is an `!llvm.func` type. The C API has no type check for
/// it, but type ids are process-wide: its type id is compared with that of
/// a function type, built once.
pub fn is_llvm_function_type(ty: Type) -> bool {
    static FUNCTION_TYPE_ID: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let raw = ty.to_raw();
    // SAFETY: queries on a live type and its (live) context; the reference
    // type is owned by that context, and a type id is a process-wide
    // constant (the address of a static in MLIR), so it outlives every
    // context.
    unsafe {
        let id = *FUNCTION_TYPE_ID.get_or_init(|| {
            let context = mlir_sys::mlirTypeGetContext(raw);
            let void = mlir_sys::mlirLLVMVoidTypeGet(context);
            let reference = mlir_sys::mlirLLVMFunctionTypeGet(void, 0, std::ptr::null(), false);
            mlir_sys::mlirTypeGetTypeID(reference).ptr as usize
        });
        mlir_sys::mlirTypeGetTypeID(raw).ptr as usize == id
    }
}

/// The `!llvm.func` type returning `result`, taking `inputs` (and more
/// arguments when `variadic`); all of one context.
pub fn llvm_function_type<'c>(result: Type<'c>, inputs: &[Type<'c>], variadic: bool) -> Type<'c> {
    let raw: Vec<mlir_sys::MlirType> = inputs.iter().map(|t| t.to_raw()).collect();
    // SAFETY: building a function type from live types; `raw` outlives the
    // call, which copies it.
    unsafe {
        Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGet(result.to_raw(), raw.len() as isize, raw.as_ptr(), variadic))
    }
}

/// An `!llvm.func` type, read through the C API's unchecked accessors
/// once its kind is checked ([`as_llvm_function`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LlvmFunctionType<'c>(Type<'c>);

/// `ty` as an `!llvm.func` type; `None` for any other type.
pub fn as_llvm_function(ty: Type) -> Option<LlvmFunctionType> {
    is_llvm_function_type(ty).then_some(LlvmFunctionType(ty))
}

impl<'c> LlvmFunctionType<'c> {
    /// The number of inputs.
    pub fn input_count(self) -> usize {
        // SAFETY: a live `!llvm.func` type (checked when the view was made).
        unsafe { mlir_sys::mlirLLVMFunctionTypeGetNumInputs(self.0.to_raw()) as usize }
    }

    /// The input types, in order.
    pub fn inputs(self) -> Vec<Type<'c>> {
        let raw = self.0.to_raw();
        // SAFETY: a live `!llvm.func` type; indices in range.
        unsafe {
            (0..mlir_sys::mlirLLVMFunctionTypeGetNumInputs(raw))
                .map(|i| Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetInput(raw, i)))
                .collect()
        }
    }

    /// The result type (`!llvm.void` for none).
    pub fn return_type(self) -> Type<'c> {
        // SAFETY: a live `!llvm.func` type.
        unsafe { Type::from_raw(mlir_sys::mlirLLVMFunctionTypeGetReturnType(self.0.to_raw())) }
    }

    /// Whether it is variadic. The C API has no query, but types are
    /// uniqued: it is compared with its non-variadic twin.
    pub fn is_variadic(self) -> bool {
        llvm_function_type(self.return_type(), &self.inputs(), false) != self.0
    }
}
