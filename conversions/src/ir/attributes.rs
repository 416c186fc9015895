//! Attributes: reading and setting them on ops, integer, array, type and
//! dictionary attributes, and the components of fused locations.

use melior::{
    ir::{
        attribute::{Attribute, AttributeLike, DenseI32ArrayAttribute},
        operation::OperationLike,
        Identifier, Location, OperationRef,
    },
    Context, StringRef,
};

use super::identifier_str;

/// The text of a string attribute (`None` for any other attribute), read
/// without panicking: empty text is `""`, and bytes that are not UTF-8 are
/// replaced (U+FFFD), where melior's `StringAttribute::value` panics on both.
pub fn string_value(attribute: Attribute<'_>) -> Option<std::borrow::Cow<'_, str>> {
    // SAFETY: a live attribute; its string is owned by the context, which
    // outlives the attribute's lifetime.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsAString(raw)
            .then(|| String::from_utf8_lossy(super::string_ref_bytes(mlir_sys::mlirStringAttrGetValue(raw))))
    }
}

/// Sets the attribute `name` of `op` (inherent or discardable).
pub fn set_attribute(op: OperationRef, name: &str, value: Attribute) {
    // SAFETY: `op` is live and `value` belongs to its context; setting an
    // attribute invalidates nothing.
    unsafe { mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), StringRef::new(name).to_raw(), value.to_raw()) };
}

/// Sets the discardable attribute `name` of `op`.
pub fn set_discardable_attribute(op: OperationRef, name: &str, value: Attribute) {
    // SAFETY: `op` is live and `value` belongs to its context; setting a
    // discardable attribute invalidates nothing.
    unsafe {
        mlir_sys::mlirOperationSetDiscardableAttributeByName(op.to_raw(), StringRef::new(name).to_raw(), value.to_raw())
    };
}

/// Removes the attribute `name` of `op` (a no-op when absent).
pub fn remove_attribute(op: OperationRef, name: &str) {
    // SAFETY: removing an attribute of a live op.
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), StringRef::new(name).to_raw()) };
}

/// Every attribute of `op` (inherent and discardable), in MLIR's order.
pub fn attributes<'c>(op: OperationRef<'c, '_>) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    // SAFETY: reading the attributes of a live op; indices in range.
    unsafe {
        (0..mlir_sys::mlirOperationGetNumAttributes(op.to_raw()))
            .map(|i| {
                let named = mlir_sys::mlirOperationGetAttribute(op.to_raw(), i);
                (Identifier::from_raw(named.name), Attribute::from_raw(named.attribute))
            })
            .collect()
    }
}

/// Appends every attribute of `op` (inherent and discardable), with its
/// name, to `into`, in MLIR's order (into a buffer the caller reuses: for
/// walks over every op).
pub fn append_attributes<'c>(op: OperationRef<'c, '_>, into: &mut Vec<(&'c str, Attribute<'c>)>) {
    // SAFETY: reading the attributes of a live op, indices in range; their
    // names are identifiers of its context, which outlives `'c`.
    unsafe {
        for i in 0..mlir_sys::mlirOperationGetNumAttributes(op.to_raw()) {
            let named = mlir_sys::mlirOperationGetAttribute(op.to_raw(), i);
            into.push((identifier_str(named.name), Attribute::from_raw(named.attribute)));
        }
    }
}

/// Appends the discardable attributes of `op`, with their names, to `into`
/// (see [`append_attributes`]). Unlike [`append_attributes`], this does
/// not build the dictionary of an op that keeps its inherent attributes as
/// properties.
pub fn append_discardable_attributes<'c>(op: OperationRef<'c, '_>, into: &mut Vec<(&'c str, Attribute<'c>)>) {
    // SAFETY: reading the attributes of a live op; indices in range.
    unsafe {
        for i in 0..mlir_sys::mlirOperationGetNumDiscardableAttributes(op.to_raw()) {
            let named = mlir_sys::mlirOperationGetDiscardableAttribute(op.to_raw(), i);
            into.push((identifier_str(named.name), Attribute::from_raw(named.attribute)));
        }
    }
}

/// The inherent attribute `name` of `op`, if it is set.
pub fn inherent_attribute<'c>(op: OperationRef<'c, '_>, name: &str) -> Option<Attribute<'c>> {
    let name_ref = StringRef::new(name);
    // SAFETY: reading an attribute of a live op; a null result is absent.
    let value = unsafe { mlir_sys::mlirOperationGetInherentAttributeByName(op.to_raw(), name_ref.to_raw()) };
    // SAFETY: a live attribute of the op's context.
    (!value.ptr.is_null()).then(|| unsafe { Attribute::from_raw(value) })
}

/// Whether the boolean attribute `name` of `op` is there and true (a
/// memcpy's `isVolatile`, say).
pub fn bool_attribute_is_true(op: OperationRef, name: &str) -> bool {
    op.attribute(name)
        .ok()
        .and_then(|a| melior::ir::attribute::BoolAttribute::try_from(a).ok())
        .is_some_and(|a| a.value())
}

/// The integer value of an integer attribute `name` of `op`, read as
/// signed at its width; `None` when it is not an integer attribute or its
/// value does not fit an `i64` (melior's reader keeps only the low 64 bits
/// of a wider value: 2^65 would read as 0).
pub fn integer_attribute(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name).ok().and_then(integer_attribute_value).and_then(|value| i64::try_from(value).ok())
}

/// The value of an integer attribute of at most 128 bits, sign-extended
/// from its width.
pub fn integer_attribute_value(attribute: Attribute) -> Option<i128> {
    let (width, bits) = ptxcc_shim::integer_attribute_bits(attribute.to_raw())?;
    let shift = 128 - width;
    Some(((bits << shift) as i128) >> shift)
}

/// The value of an integer attribute of at most 128 bits as its width and
/// bits (zero-extended from the width).
pub fn integer_attribute_bits(attribute: Attribute) -> Option<(u32, u128)> {
    ptxcc_shim::integer_attribute_bits(attribute.to_raw())
}

/// The elements of a dense `i32` array attribute `name` of `op`
/// (`operandSegmentSizes`, `rawConstantIndices`).
pub fn i32_array_attribute(op: OperationRef, name: &str) -> Option<Vec<i32>> {
    let attribute = DenseI32ArrayAttribute::try_from(op.attribute(name).ok()?).ok()?;
    (0..attribute.len()).map(|i| attribute.element(i).ok()).collect()
}

/// The elements of a dense `i64` array attribute `name` of `op`
/// (`position` of `extractvalue`/`insertvalue`).
pub fn i64_array_attribute(op: OperationRef, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsADenseI64Array(raw).then(|| {
            (0..mlir_sys::mlirDenseArrayGetNumElements(raw))
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(raw, i))
                .collect()
        })
    }
}

/// The type attribute `name` of `op` as a type (`elem_type` of a GEP).
pub fn type_attribute<'c>(op: OperationRef<'c, '_>, name: &str) -> Option<melior::ir::Type<'c>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: reading a live attribute after checking its kind.
    unsafe {
        mlir_sys::mlirAttributeIsAType(attribute.to_raw())
            .then(|| melior::ir::Type::from_raw(mlir_sys::mlirTypeAttrGetValue(attribute.to_raw())))
    }
}

/// The elements of `attribute` when it is an array attribute.
pub fn array_elements(attribute: Attribute) -> Option<Vec<Attribute>> {
    // SAFETY: reading a live attribute after checking its kind; indices in
    // range.
    unsafe {
        let raw = attribute.to_raw();
        mlir_sys::mlirAttributeIsAArray(raw).then(|| {
            (0..mlir_sys::mlirArrayAttrGetNumElements(raw))
                .map(|i| Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(raw, i)))
                .collect()
        })
    }
}

/// Whether `attribute` is a dictionary attribute.
pub fn is_dictionary(attribute: Attribute) -> bool {
    // SAFETY: a kind query on a live attribute.
    unsafe { mlir_sys::mlirAttributeIsADictionary(attribute.to_raw()) }
}

/// The entries of a dictionary attribute (none for anything else).
pub fn dictionary_entries(dictionary: Attribute) -> Vec<(Identifier, Attribute)> {
    // SAFETY: reading entries of a live attribute; non-dictionaries have none.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(dictionary.to_raw()) {
            return Vec::new();
        }
        (0..mlir_sys::mlirDictionaryAttrGetNumElements(dictionary.to_raw()))
            .map(|i| {
                let named = mlir_sys::mlirDictionaryAttrGetElement(dictionary.to_raw(), i);
                (Identifier::from_raw(named.name), Attribute::from_raw(named.attribute))
            })
            .collect()
    }
}

/// The entry `name` of a dictionary attribute; `None` when it has none,
/// and for anything but a dictionary.
pub fn dictionary_element<'c>(dictionary: Attribute<'c>, name: &str) -> Option<Attribute<'c>> {
    if !is_dictionary(dictionary) {
        return None;
    }
    // SAFETY: reading a named entry of a live dictionary attribute (the
    // kind is checked above).
    let raw =
        unsafe { mlir_sys::mlirDictionaryAttrGetElementByName(dictionary.to_raw(), StringRef::new(name).to_raw()) };
    // SAFETY: a live attribute of the dictionary's context.
    (!raw.ptr.is_null()).then(|| unsafe { Attribute::from_raw(raw) })
}

/// A dictionary attribute of `entries`.
pub fn dictionary<'c>(context: &'c Context, entries: &[(Identifier<'c>, Attribute<'c>)]) -> Attribute<'c> {
    let named: Vec<_> = entries
        .iter()
        .map(|(name, value)| mlir_sys::MlirNamedAttribute { name: name.to_raw(), attribute: value.to_raw() })
        .collect();
    // SAFETY: the context is alive and `named` outlives the call.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(context.to_raw(), named.len() as isize, named.as_ptr()))
    }
}

/// The `#llvm.cconv<ptx_kernelcc>` attribute of `context` (what a kernel's
/// `CConv` is; attributes are uniqued, so it compares with an op's).
pub fn ptx_kernel_cconv(context: &Context) -> Attribute<'_> {
    // SAFETY: the context is alive; the attribute is owned by it.
    unsafe {
        Attribute::from_raw(mlir_sys::mlirLLVMCConvAttrGet(
            context.to_raw(),
            mlir_sys::MlirLLVMCConv_MlirLLVMCConvPTX_Kernel,
        ))
    }
}

/// Whether `op` has the discardable attribute `name` (a dialect attribute
/// such as `nvvm.kernel`; inherent attributes are not looked at, which saves
/// the lookup by name its cost on a large module: see
/// [`super::symbol_name`]).
pub fn has_discardable_attribute(op: OperationRef, name: &str) -> bool {
    let name_ref = melior::StringRef::new(name);
    // SAFETY: the op is alive; the name outlives the call.
    let found = unsafe { mlir_sys::mlirOperationGetDiscardableAttributeByName(op.to_raw(), name_ref.to_raw()) };
    !found.ptr.is_null()
}

/// Whether `op`, an `llvm.func`, has the `ptx_kernelcc` calling convention
/// (read from its properties); `None` when `op` is not an `llvm.func`.
pub fn llvm_func_is_ptx_kernel(op: OperationRef) -> Option<bool> {
    ptxcc_shim::llvm_func_is_ptx_kernel(op.to_raw())
}

/// `location` without the debug-info subprogram it may name, at any depth
/// (see [`ptxcc_shim::location_without_subprogram`]).
pub fn location_without_subprogram(location: Location) -> Location {
    let raw = ptxcc_shim::location_without_subprogram(location.to_raw());
    // SAFETY: a live location of `location`'s context, which the shim made.
    unsafe { Location::from_raw(raw) }
}
