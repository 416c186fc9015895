//! `ptxcc.load_param` -> `llvm.getelementptr` + `llvm.load` in param space.

use crate::ir::OperationExt;
use melior::{
    dialect::llvm::{self, LoadStoreOptions},
    ir::{attribute::IntegerAttribute, r#type::IntegerType, ValueLike},
    Context, RewritePatternSet,
};
use ptxcc_dialect::names;

use super::add_lowering;
use crate::ir::integer_attribute;

/// Adds `LoadParamLowering`: a byte GEP to the offset (none for offset 0)
/// and an aligned load, which `llc` prints as `ld.param.<ty> %r, [sym+off]`.
pub fn populate_load_param_patterns(patterns: &RewritePatternSet, context: &Context) {
    add_lowering(patterns, context, names::LOAD_PARAM, |emit, op| {
        let ptr = op.operand_at(0).ok()?;
        let result_type = op.result_at(0).ok()?.r#type();
        let offset = integer_attribute(op, "offset")?;
        let alignment = integer_attribute(op, "alignment")?;
        let i64_type = IntegerType::new(emit.context, 64).into();
        let address = emit.byte_offset(ptr, u64::try_from(offset).ok()?)?;
        let load = emit.emit(llvm::load(
            emit.context,
            address,
            result_type,
            emit.location,
            LoadStoreOptions::new().align(Some(IntegerAttribute::new(i64_type, alignment))),
        ))?;
        Some(vec![load])
    });
}
