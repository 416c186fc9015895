//! Contexts with exactly the dialects ptxcc uses.

use melior::{dialect::DialectRegistry, Context};

use crate::{shim, Error};

/// Inserts the dialects ptxcc works with into `registry`: `builtin`, `dlti`
/// (the data layout of imported modules), `func`, `llvm`, `nvvm` and `irdl`
/// (which carries the `ptxcc` definition), plus the
/// translations of `builtin`, `llvm` and `nvvm` to LLVM IR.
///
/// Only these are linked into `ptxcc-opt`, which keeps it about a third of
/// the size of a binary that registers every MLIR dialect.
pub fn register_dialects(registry: &DialectRegistry) {
    shim::register_dialects(registry.to_raw())
}

/// Makes `context` ready for ptxcc IR: appends the dialects of
/// [`register_dialects`], loads them, and loads the `ptxcc` dialect.
///
/// Use it on a context your compiler already owns; afterwards MLIR's
/// verifier checks `ptxcc.*` ops.
pub fn prepare_context(context: &Context) -> Result<(), Error> {
    let registry = DialectRegistry::new();
    register_dialects(&registry);
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    ptxcc_dialect::load(context)?;
    Ok(())
}

/// A new (multi-threaded) context prepared with [`prepare_context`].
pub fn create_context() -> Result<Context, Error> {
    let context = Context::new();
    prepare_context(&context)?;
    Ok(context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{
        attribute::IntegerAttribute, operation::OperationLike, r#type::IntegerType, Block, BlockLike, Location,
    };
    use ptxcc_dialect::types::pointer_type;

    /// The typed builders generated from the `.td` make ops that the
    /// IRDL-registered dialect accepts and that print as expected.
    #[test]
    fn generated_builders_make_verified_ops() {
        let context = create_context().expect("context");
        let location = Location::unknown(&context);
        let i64_type = IntegerType::new(&context, 64).into();
        let block = Block::new(&[(pointer_type(&context, 101), location), (pointer_type(&context, 0), location)]);
        let param = block.argument(0).expect("param").into();
        let local = block.argument(1).expect("local").into();
        let load = block.append_operation(
            ptxcc_dialect::ops::load_param(
                &context,
                IntegerType::new(&context, 32).into(),
                param,
                IntegerAttribute::new(i64_type, 24),
                IntegerAttribute::new(i64_type, 4),
                location,
            )
            .into(),
        );
        let copy = block.append_operation(
            ptxcc_dialect::ops::copy_param(
                &context,
                param,
                local,
                IntegerAttribute::new(i64_type, 32),
                IntegerAttribute::new(i64_type, 16),
                location,
            )
            .into(),
        );
        assert!(load.verify() && copy.verify());
        assert_eq!(
            load.to_string(),
            "%0 = \"ptxcc.load_param\"(<<UNKNOWN SSA VALUE>>) {alignment = 4 : i64, offset = 24 : i64} : (!llvm.ptr<101>) -> i32"
        );
        assert!(ptxcc_dialect::verify(load).is_ok());
    }

    /// Loading twice is harmless, and every op of the `.td` is registered
    /// by its generated name constant.
    #[test]
    fn dialect_loads_once_and_every_op_is_registered() {
        let context = create_context().expect("context");
        ptxcc_dialect::load(&context).expect("second load");
        for op in ptxcc_dialect::OPS {
            assert!(context.is_registered_operation(op.full_name), "{} is not registered", op.full_name);
        }
        assert!(context.is_registered_operation(ptxcc_dialect::names::LOAD_PARAM));
        assert!(!context.is_registered_operation("ptxcc.no_such_op"));
    }

    /// `build.rs` reads every op record of the `.td` (counted here from the
    /// text itself: one `def Ptxcc_...Op` per op).
    #[test]
    fn the_op_table_has_every_op_of_the_td() {
        let td = include_str!("../dialect/td/PtxccOps.td");
        let defined =
            td.lines().filter(|line| line.starts_with("def Ptxcc_") && line.contains("Op : Ptxcc_Op<")).count();
        assert!(defined > 0);
        assert_eq!(ptxcc_dialect::OPS.len(), defined);
    }

    /// The guide's op table (docs/guide/dialect.md) has a row for every op
    /// of the `.td`.
    #[test]
    fn guide_op_table_names_every_op() {
        let guide = include_str!("../docs/guide/dialect.md");
        for op in ptxcc_dialect::OPS {
            let row = format!("| `{}`", op.full_name);
            assert!(
                guide.lines().any(|line| line.starts_with(&row)),
                "docs/guide/dialect.md's op table lacks {}",
                op.full_name
            );
        }
    }
}
