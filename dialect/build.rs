//! Derives the run-time definition of the `ptxcc` dialect from its ODS source.
//!
//! `td/PtxccOps.td` is the single source of the dialect. This script reads its
//! records with the `tblgen` crate and writes three files into `OUT_DIR`:
//!
//! * `ptxcc.irdl.mlir`: the IRDL module that registers the dialect at run time
//!   (and that upstream `mlir-opt --irdl-file=...` reads);
//! * `op_table.rs`: a table of every op (name, summary, operands, attributes,
//!   results, each with its constraint) that the Rust verifier and the docs use;
//! * `names.rs`: one constant per op with its name in IR (`LOAD_PARAM`).
//!
//! Each ODS constraint used by the `.td` must have an IRDL counterpart below.
//! An unknown constraint stops the build: the two definitions cannot drift
//! apart silently.

use std::{env, error::Error, fmt::Write as _, fs, path::Path};

use tblgen::{record::Record, TableGenParser, TypedInit};

const TD_FILE: &str = "td/PtxccOps.td";

/// One operand, attribute or result of an op, with its constraint.
struct Field {
    name: String,
    constraint: Constraint,
}

/// The constraints the `.td` uses, as far as IRDL and our verifier need them.
enum Constraint {
    /// Any `!llvm.ptr`.
    AnyPointer,
    /// `!llvm.ptr<N>`.
    PointerInAddressSpace(u32),
    /// Any type (the finer ODS predicate is not expressible in IRDL).
    AnyType,
    /// `LLVM_LoadableType`: IRDL lets any type through, the Rust verifier
    /// checks that it has a size and can be loaded.
    LoadableType,
    /// A `builtin.integer` attribute of the given width.
    IntegerAttr(u32),
}

impl Constraint {
    fn from_record(record: Record) -> Result<Self, Box<dyn Error>> {
        let name = record.name()?;
        if record.subclass_of("LLVM_PointerInAddressSpace") {
            // The class bakes the address space into its summary:
            // "LLVM pointer in address space N".
            let summary = record.str_value("summary")?;
            let space = summary
                .rsplit(' ')
                .next()
                .and_then(|word| word.parse().ok())
                .ok_or_else(|| format!("{name}: cannot read the address space from {summary:?}"))?;
            return Ok(Self::PointerInAddressSpace(space));
        }
        Ok(match name {
            "LLVM_AnyPointer" => Self::AnyPointer,
            "LLVM_LoadableType" => Self::LoadableType,
            "LLVM_Type" | "AnyType" => Self::AnyType,
            "I64Attr" => Self::IntegerAttr(64),
            "I32Attr" => Self::IntegerAttr(32),
            other => {
                return Err(format!(
                    "{TD_FILE}: the constraint `{other}` has no IRDL counterpart; add one to dialect/build.rs"
                )
                .into())
            }
        })
    }

    fn irdl(&self) -> String {
        match self {
            Self::AnyPointer => "irdl.base \"!llvm.ptr\"".into(),
            Self::PointerInAddressSpace(0) => "irdl.is !llvm.ptr".into(),
            Self::PointerInAddressSpace(space) => format!("irdl.is !llvm.ptr<{space}>"),
            Self::AnyType | Self::LoadableType => "irdl.any".into(),
            Self::IntegerAttr(_) => "irdl.base \"#builtin.integer\"".into(),
        }
    }

    fn rust(&self) -> String {
        match self {
            Self::AnyPointer => "Constraint::AnyPointer".into(),
            Self::PointerInAddressSpace(space) => format!("Constraint::PointerInAddressSpace({space})"),
            Self::AnyType => "Constraint::AnyType".into(),
            Self::LoadableType => "Constraint::LoadableType".into(),
            Self::IntegerAttr(width) => format!("Constraint::IntegerAttr({width})"),
        }
    }
}

struct OpDef {
    name: String,
    summary: String,
    operands: Vec<Field>,
    attributes: Vec<Field>,
    results: Vec<Field>,
}

fn fields(record: Record, dag: &str) -> Result<(Vec<Field>, Vec<Field>), Box<dyn Error>> {
    let mut values = Vec::new();
    let mut attributes = Vec::new();
    for (name, init) in record.dag_value(dag)?.args() {
        let name = name.ok_or_else(|| format!("{}: unnamed `{dag}` entry", record.name().unwrap_or("?")))?;
        let TypedInit::Def(def) = init else {
            return Err(format!("{}: `{name}` is not a plain constraint", record.name()?).into());
        };
        let def = Record::from(def);
        let field = Field { name: name.to_string(), constraint: Constraint::from_record(def)? };
        if def.subclass_of("Attr") {
            attributes.push(field);
        } else {
            values.push(field);
        }
    }
    Ok((values, attributes))
}

fn read_ops(include: &str) -> Result<(String, Vec<OpDef>), Box<dyn Error>> {
    let keeper = TableGenParser::new()
        .add_source_file(TD_FILE)
        .add_include_directory(include)
        .parse()
        .map_err(|error| format!("{TD_FILE}: {error}"))?;
    let dialect = keeper.def("Ptxcc_Dialect")?;
    let dialect_name = dialect.str_value("name")?.to_string();
    let mut ops = Vec::new();
    for op in keeper.all_derived_definitions("Op") {
        if op.def_value("opDialect")?.name()? != dialect.name()? {
            continue;
        }
        let (operands, attributes) = fields(op, "arguments")?;
        let (results, _) = fields(op, "results")?;
        ops.push(OpDef {
            name: op.str_value("opName")?.to_string(),
            summary: op.str_value("summary")?.to_string(),
            operands,
            attributes,
            results,
        });
    }
    ops.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((dialect_name, ops))
}

fn irdl(dialect: &str, ops: &[OpDef]) -> String {
    let mut out = String::new();
    out.push_str("// The ptxcc dialect in IRDL. Generated by dialect/build.rs from\n");
    out.push_str("// dialect/td/PtxccOps.td: do not edit. Use it with upstream tools:\n");
    out.push_str("//   mlir-opt --irdl-file=ptxcc.irdl.mlir input.mlir\n");
    out.push_str("// (ptxcc ops print in generic form and keep their attributes in the\n");
    out.push_str("// attribute dictionary: IRDL dialects have no properties.)\n");
    let _ = writeln!(out, "irdl.dialect @{dialect} {{");
    for op in ops {
        let _ = writeln!(out, "  irdl.operation @{} {{", op.name);
        // Every field gets its own constraint value: IRDL unifies uses of one value.
        let mut next = 0;
        let mut section = |fields: &[Field], keyword: &str, out: &mut String, quoted: bool| {
            if fields.is_empty() {
                return;
            }
            let mut refs = Vec::new();
            for field in fields {
                let _ = writeln!(out, "    %{next} = {}", field.constraint.irdl());
                refs.push(if quoted {
                    format!("\"{}\" = %{next}", field.name)
                } else {
                    format!("{}: %{next}", field.name)
                });
                next += 1;
            }
            let (open, close) = if quoted { (" {", "}") } else { ("(", ")") };
            let _ = writeln!(out, "    {keyword}{open}{}{close}", refs.join(", "));
        };
        section(&op.operands, "irdl.operands", &mut out, false);
        section(&op.results, "irdl.results", &mut out, false);
        section(&op.attributes, "irdl.attributes", &mut out, true);
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn rust_table(dialect: &str, ops: &[OpDef]) -> String {
    let fields = |fields: &[Field]| {
        fields
            .iter()
            .map(|f| format!("Field {{ name: {:?}, constraint: {} }}", f.name, f.constraint.rust()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from("// Generated by dialect/build.rs from dialect/td/PtxccOps.td.\n");
    let _ = writeln!(out, "/// Name of the dialect, from the `.td`.");
    let _ = writeln!(out, "pub const DIALECT_NAME: &str = {dialect:?};");
    let _ = writeln!(out, "/// Every op of the dialect, from the `.td`, sorted by name.");
    let _ = writeln!(out, "pub const OPS: &[OpInfo] = &[");
    for op in ops {
        let _ = writeln!(
            out,
            "    OpInfo {{ name: {:?}, full_name: {:?}, summary: {:?}, operands: &[{}], attributes: &[{}], results: &[{}] }},",
            op.name,
            format!("{dialect}.{}", op.name),
            op.summary,
            fields(&op.operands),
            fields(&op.attributes),
            fields(&op.results),
        );
    }
    out.push_str("];\n");
    out
}

fn name_constants(dialect: &str, ops: &[OpDef]) -> String {
    let mut out = String::from("// Generated by dialect/build.rs from dialect/td/PtxccOps.td.\n");
    for op in ops {
        let _ = writeln!(out, "/// `{dialect}.{}`: {}", op.name, op.summary);
        let _ = writeln!(out, "pub const {}: &str = \"{dialect}.{}\";", op.name.to_ascii_uppercase(), op.name);
    }
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo:rerun-if-changed={TD_FILE}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TABLEGEN_220_PREFIX");
    let prefix = env::var("TABLEGEN_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let (dialect, ops) = read_ops(&format!("{prefix}/include"))?;
    if ops.is_empty() {
        return Err(format!("{TD_FILE}: no ops found").into());
    }
    let out = env::var("OUT_DIR")?;
    fs::write(Path::new(&out).join("ptxcc.irdl.mlir"), irdl(&dialect, &ops))?;
    fs::write(Path::new(&out).join("op_table.rs"), rust_table(&dialect, &ops))?;
    fs::write(Path::new(&out).join("names.rs"), name_constants(&dialect, &ops))?;
    Ok(())
}
