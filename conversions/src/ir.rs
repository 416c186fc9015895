//! IR queries and changes that melior does not wrap: positional access,
//! the uses of a value, operand segments, integer constants, the indices of
//! `llvm.getelementptr`, attributes, LLVM types, the functions of a module
//! and symbol references. (Parameter attributes are in [`crate::kernel`].)
//!
//! With the shim crate, this is the only place that calls the MLIR C API
//! (`mlir_sys`) directly: the passes, the dialect and the driver go through
//! the safe functions here (a test below keeps it that way). Each
//! submodule covers one concern; everything is re-exported here.

mod access;
mod attributes;
mod cfg;
mod context;
mod io;
mod llvm;
mod ops;
mod parallel;
mod rewriter;
mod symbols;
mod types;
mod values;

pub use access::*;
pub use attributes::*;
pub use cfg::*;
pub use context::*;
pub use io::*;
pub use llvm::*;
pub use ops::*;
pub use parallel::*;
pub use rewriter::*;
pub use symbols::*;
pub use types::*;
pub use values::*;

/// The hash map of the passes: keyed by IR handles (pointers) and symbol
/// names, hashed with rustc's Fx hash, which costs a few instructions a key
/// where the standard library's DoS-resistant SipHash cost about a tenth
/// of the passes' instructions (the keys come from one module, which
/// a compiler trusts as much as it trusts its input).
pub type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// The hash set of the passes (see [`HashMap`]).
pub type HashSet<T> = rustc_hash::FxHashSet<T>;

/// Adds the `gpu` and `nvvm` dialects to `registry` (for tests that parse
/// `gpu.module`s with NVVM targets).
#[cfg(test)]
pub(crate) fn insert_gpu_and_nvvm_dialects(registry: &melior::dialect::DialectRegistry) {
    // SAFETY: the registry is alive; inserting the gpu and nvvm handles.
    unsafe {
        mlir_sys::mlirDialectHandleInsertDialect(mlir_sys::mlirGetDialectHandle__gpu__(), registry.to_raw());
        mlir_sys::mlirDialectHandleInsertDialect(mlir_sys::mlirGetDialectHandle__nvvm__(), registry.to_raw());
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// Every `.rs` file under `root`.
    fn rust_files(root: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(path) = stack.pop() {
            if path.is_dir() {
                stack.extend(std::fs::read_dir(&path).unwrap().map(|entry| entry.unwrap().path()));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
        files.sort();
        files
    }

    /// melior's positional accessors print the whole op (or block) into
    /// their error: the passes use [`super::OperationExt`] and
    /// [`super::BlockExt`] instead. This keeps it that way.
    #[test]
    fn passes_use_the_cheap_positional_accessors() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut offenders = Vec::new();
        for path in rust_files(Path::new(root)) {
            let text = std::fs::read_to_string(&path).unwrap();
            for (number, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or_default();
                for method in ["operand", "result", "region", "successor", "argument"] {
                    if code.contains(&format!(".{method}(")) {
                        offenders.push(format!("{}:{}: {}", path.display(), number + 1, line.trim()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "use operand_at/result_at/region_at/successor_at/argument_at:\n{}",
            offenders.join("\n")
        );
    }

    /// The `.rs` files of the passes, the dialect and the driver that are
    /// outside the IR module: (path relative to the workspace, text).
    fn files_outside_the_ir_module() -> Vec<(String, String)> {
        let conversions = Path::new(env!("CARGO_MANIFEST_DIR"));
        let workspace = conversions.parent().expect("the conversions crate is in the workspace");
        let (ir_file, ir_dir) = (conversions.join("src/ir.rs"), conversions.join("src/ir"));
        let roots = [
            conversions.join("src"),
            workspace.join("src"),
            workspace.join("dialect/src"),
            workspace.join("plugin/src"),
        ];
        let mut found = Vec::new();
        for root in roots.iter().filter(|root| root.is_dir()) {
            for path in rust_files(root) {
                if path == ir_file || path.starts_with(&ir_dir) {
                    continue;
                }
                let relative = path.strip_prefix(workspace).unwrap_or(&path).display().to_string();
                found.push((relative, std::fs::read_to_string(&path).unwrap()));
            }
        }
        found
    }

    /// The code of a line: without its comment.
    fn code(line: &str) -> &str {
        line.split("//").next().unwrap_or_default()
    }

    /// `unsafe` lives in the IR module and the shim; elsewhere only these
    /// documented exceptions (file, number of `unsafe` keywords in code):
    /// work on the context's thread pool (`parallel_chunks`: planning,
    /// lower-struct-args' kernels and the promotion of scalar slots, each
    /// chunk changing only its own functions),
    /// the driver's verifier thread, and glibc's `mallopt` (its declaration
    /// and its call).
    #[test]
    fn unsafe_stays_in_the_ir_module_and_the_shim() {
        let allowed = [
            ("conversions/src/lower_struct_args.rs", 2),
            ("conversions/src/lower_struct_args/device/rewrite.rs", 2),
            ("conversions/src/lower_struct_args/external.rs", 1),
            ("conversions/src/lower_struct_args/rounds.rs", 2),
            ("conversions/src/lower_struct_args/symbols.rs", 1),
            ("src/opt.rs", 1),
            ("src/bin/ptxcc-opt.rs", 2),
        ];
        let mut offenders = Vec::new();
        let mut total = 0;
        for (path, text) in files_outside_the_ir_module() {
            let count: usize = text.lines().map(|line| code(line).matches("unsafe").count()).sum();
            total += count;
            let expected = allowed.iter().find(|(file, _)| *file == path).map_or(0, |(_, n)| *n);
            if count != expected {
                offenders.push(format!("{path}: {count} (expected {expected})"));
            }
        }
        assert!(
            offenders.is_empty(),
            "unsafe outside conversions/src/ir and the shim: add a safe function to the IR module instead:\n{}",
            offenders.join("\n")
        );
        assert!(total <= 11, "{total} unsafe blocks outside the IR module and the shim");
    }

    /// LLVM op names are spelled in the IR module only (`LlvmOp` and its
    /// views): a string literal outside it that is an LLVM op's name (or an
    /// intrinsic's, `llvm.intr.*`) fails.
    #[test]
    fn llvm_op_names_are_spelled_only_in_the_ir_module() {
        let names = super::LlvmOp::all_names();
        let mut offenders = Vec::new();
        for (path, text) in files_outside_the_ir_module() {
            for (number, line) in text.lines().enumerate() {
                let code = code(line);
                for literal in code.split('"').skip(1).step_by(2) {
                    if names.contains(&literal) || literal.starts_with("llvm.intr.") {
                        offenders.push(format!("{path}:{}: \"{literal}\"", number + 1));
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "use ir::LlvmOp and the typed views instead of:\n{}", offenders.join("\n"));
    }

    /// The raw C API is named only here (`ir.rs` and `ir/`) and in the shim
    /// crate: the passes (`conversions/src`), the driver (`src`) and the
    /// dialect (`dialect/src`) call safe functions instead. Fails naming
    /// each other file whose text mentions the bindings crate.
    #[test]
    fn the_c_api_is_named_only_in_the_ir_module_and_the_shim() {
        let conversions = Path::new(env!("CARGO_MANIFEST_DIR"));
        let workspace = conversions.parent().expect("the conversions crate is in the workspace");
        let ir_file = conversions.join("src/ir.rs");
        let ir_dir = conversions.join("src/ir");
        let roots = [conversions.join("src"), workspace.join("src"), workspace.join("dialect/src")];
        let mut offenders = Vec::new();
        for root in &roots {
            assert!(root.is_dir(), "{} is not a directory", root.display());
            for path in rust_files(root) {
                if path == ir_file || path.starts_with(&ir_dir) {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains(concat!("mlir", "_sys")) {
                    offenders.push(path.display().to_string());
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "only conversions/src/ir.rs, conversions/src/ir/ and the shim may call the C API directly; \
             use (or add) a safe function there instead, in:\n{}",
            offenders.join("\n")
        );
    }
}
