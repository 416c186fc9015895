//! Pass options: one typed struct per pass, built from command-line text in
//! one place.
//!
//! MLIR writes pass options as `name{key=value key2=value2}`; a boolean may be
//! written bare (`name{vector-copy}` means `vector-copy=true`). Every options
//! struct implements [`PassOptions`], which lists the options with their
//! defaults (what `ptxcc-opt --help` prints) and parses the text between the
//! braces.

use std::collections::HashMap;

use melior::ir::{attribute::AttributeLike, operation::OperationLike, OperationRef};

use crate::abi::{signature::function_target, AbiError, Target};

mod declare;

pub(crate) use declare::declare_pass;
pub use declare::{concat, union};

/// One option of a pass, as `--help` shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// Kebab-case name (`inline-copy-threshold`).
    pub name: &'static str,
    /// Default value, as text (`256`).
    pub default: &'static str,
    /// What it does.
    pub description: &'static str,
}

/// Why option text could not be parsed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OptionError {
    /// The pass has no option of that name.
    #[error("unknown option '{name}' for pass '{pass}' (it has: {known})")]
    Unknown {
        /// The pass.
        pass: &'static str,
        /// The unknown name.
        name: String,
        /// The names the pass knows, comma separated.
        known: String,
    },
    /// The value does not parse.
    #[error("option '{name}' of pass '{pass}' expects {expected}, got '{value}'")]
    Invalid {
        /// The pass.
        pass: &'static str,
        /// The option.
        name: String,
        /// What was given.
        value: String,
        /// What was expected.
        expected: &'static str,
    },
}

impl OptionError {
    /// The same error, reported for the pass `pass` (a pipeline that took
    /// the option on behalf of one of its passes).
    pub fn for_pass(self, pass: &'static str) -> Self {
        match self {
            Self::Unknown { name, known, .. } => Self::Unknown { pass, name, known },
            Self::Invalid { name, value, expected, .. } => Self::Invalid { pass, name, value, expected },
        }
    }
}

/// A typed options struct of one pass.
pub trait PassOptions: Default + Clone + Send + 'static {
    /// The pass these options belong to (its command-line name).
    const PASS: &'static str;
    /// One line saying what the pass does (`--help`, MLIR's pass registry).
    const SUMMARY: &'static str;
    /// Every option with its default, in the order `--help` shows them.
    const OPTIONS: &'static [OptionInfo];

    /// Sets one option from text; `value` is `None` for a bare name. A
    /// name not in [`Self::OPTIONS`] is [`OptionError::Unknown`].
    fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError>;

    /// Parses the text between a pass's braces, starting from the defaults.
    fn parse(text: &str) -> Result<Self, OptionError> {
        let mut options = Self::default();
        for item in split_options(text) {
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (name.trim(), Some(unquote(value.trim()))),
                None => (item.trim(), None),
            };
            options.set(name, value)?;
        }
        Ok(options)
    }
}

/// The type of one option: how its text parses. Implemented for `bool`,
/// `u64` and [`LlvmOptAfter`]; a new option type implements it once.
pub trait OptionValue: Sized {
    /// Parses `value` (`None` for a bare name) for the option `name` of
    /// `pass`.
    fn parse_option(pass: &'static str, name: &str, value: Option<&str>) -> Result<Self, OptionError>;
}

impl OptionValue for bool {
    fn parse_option(pass: &'static str, name: &str, value: Option<&str>) -> Result<Self, OptionError> {
        parse_bool(pass, name, value)
    }
}

impl OptionValue for u64 {
    fn parse_option(pass: &'static str, name: &str, value: Option<&str>) -> Result<Self, OptionError> {
        parse_u64(pass, name, value)
    }
}

/// Options several passes share as one field (`chip` and `ptx`, in
/// [`TargetOptions`]): their entries in `--help` and their parsing.
pub trait OptionGroup: Default {
    /// The group's options, in `--help` order.
    const OPTIONS: &'static [OptionInfo];

    /// Sets one option of the group for the pass `pass`; `None` when
    /// `name` is not in the group.
    fn set(&mut self, pass: &'static str, name: &str, value: Option<&str>) -> Option<Result<(), OptionError>>;
}

/// The error for an option `name` that the pass `T` does not have.
pub fn unknown_option<T: PassOptions>(name: &str) -> OptionError {
    OptionError::Unknown {
        pass: T::PASS,
        name: name.to_string(),
        known: T::OPTIONS.iter().map(|o| o.name).collect::<Vec<_>>().join(", "),
    }
}

/// The target the passes lower for: the `chip` and `ptx` options, shared by
/// every pass that needs a target.
///
/// `llc` compiles a whole module for its command line's `-mcpu` and
/// `-mattr=+ptxNN` and ignores the `target-cpu`/`target-features` that
/// front ends record in each function. So a chip or PTX version given here
/// (what `llc` will be given) wins over the function's; when none is given,
/// the function's own `target_cpu`/`target_features` are the best guess of
/// the target, and then `sm_90` and the chip's minimum PTX version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TargetOptions {
    /// The chip `llc` compiles for (`-mcpu`); empty: each function's
    /// `target_cpu`, else `sm_90`.
    pub chip: String,
    /// PTX version times ten (`llc -mattr=+ptxNN`); 0: each function's
    /// `+ptxNN`, else the chip's minimum (as in `llc`).
    pub ptx: u32,
}

/// The chip of a function that names none when no `chip` is given.
pub const DEFAULT_CHIP: &str = "sm_90";

impl OptionGroup for TargetOptions {
    const OPTIONS: &'static [OptionInfo] = &[
        OptionInfo {
            name: "chip",
            default: "auto",
            description: "the chip llc compiles for (llc -mcpu), over each function's target_cpu; auto = each function's target_cpu, else sm_90",
        },
        OptionInfo {
            name: "ptx",
            default: "0",
            description: "PTX version x10 llc compiles for (llc -mattr=+ptxNN), over each function's +ptxNN; 0 = each function's, else the chip's minimum",
        },
    ];

    fn set(&mut self, pass: &'static str, name: &str, value: Option<&str>) -> Option<Result<(), OptionError>> {
        Some(match name {
            "chip" => parse_chip(pass, name, value).map(|chip| self.chip = chip),
            "ptx" => parse_ptx(pass, name, value).map(|ptx| self.ptx = ptx),
            _ => return None,
        })
    }
}

impl TargetOptions {
    /// [`TargetOptions::target_of`], worked out once per distinct source
    /// in `cache`.
    pub fn target_of_cached(&self, func: OperationRef, cache: &mut TargetCache) -> Result<Target, AbiError> {
        let raw = |name: &str| func.attribute(name).map_or(0, |a| a.to_raw().ptr as usize);
        let (cpu, features) = (raw("target_cpu"), raw("target_features"));
        // A function with neither takes the targets of the `gpu.module`
        // around it, if any.
        let scope = if cpu == 0 && features == 0 {
            func.parent_operation().map_or(0, |parent| parent.to_raw().ptr as usize)
        } else {
            0
        };
        cache.known.entry([cpu, features, scope]).or_insert_with(|| self.target_of(func)).clone()
    }

    /// The target of `func` under these options (the options first, then
    /// its own `target_cpu` and `target_features`).
    pub fn target_of(&self, func: OperationRef) -> Result<Target, AbiError> {
        function_target(
            func,
            (!self.chip.is_empty()).then_some(self.chip.as_str()),
            (self.ptx != 0).then_some(self.ptx),
        )
    }
}

/// Targets already worked out during one pass run, by what they come from:
/// a function's `target_cpu` and `target_features` attributes, or the op
/// around it when it has neither (a `gpu.module`'s targets). Attributes are
/// uniqued and live as long as their context, so a key stays true for the
/// run; working a target out (reading the features, resolving the chip
/// and PTX version) is otherwise repeated for each of a module's thousands
/// of functions, which mostly share one pair of attributes.
#[derive(Debug, Default)]
pub struct TargetCache {
    known: HashMap<[usize; 3], Result<Target, AbiError>>,
}

/// Whether LLVM's optimizer runs on ptxcc's output before `llc`: the
/// position MLIR compilers put ptxcc in (Triton, IREE, upstream's
/// `gpu-module-to-binary`, which runs LLVM's pipeline at the
/// `#nvvm.target`'s `O` level), as opposed to clang -O2 IR going straight
/// to `llc`.
///
/// There, what ptxcc decides on unoptimized shapes (a struct copied because
/// its address sits in a stack slot at -O0, a `memcpy` expanded into loads
/// and stores that memcpyopt could have forwarded) can only be worse than
/// what `llc` decides after the optimizer; so a kernel `byval` parameter
/// is lowered only when every use reads it at a known place (param-space
/// loads, which the optimizer handles as well as any load), and is
/// otherwise left for `llc` to lower after optimization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LlvmOptAfter {
    /// Inside a `gpu.module` whose `#nvvm.target` has an `O` level above 0
    /// (upstream's default is 2): yes; anywhere else: no.
    #[default]
    Auto,
    /// The optimizer runs after ptxcc.
    Yes,
    /// `llc` comes right after ptxcc.
    No,
}

impl OptionValue for LlvmOptAfter {
    fn parse_option(pass: &'static str, name: &str, value: Option<&str>) -> Result<Self, OptionError> {
        Self::parse(pass, name, value)
    }
}

impl LlvmOptAfter {
    /// The option's description, shared by every pass that has it.
    pub const DESCRIPTION: &'static str = "LLVM's optimizer runs on the output before llc (MLIR compilers, gpu-module-to-binary): promote scalar stack slots first (MLIR's mem2reg), lower byval parameters read at known places or written, and leave escapes for llc to decide after optimization; auto = inside a gpu.module whose #nvvm.target has O > 0";

    /// Parses the option's value (`auto`, or a boolean).
    pub fn parse(pass: &'static str, name: &str, value: Option<&str>) -> Result<Self, OptionError> {
        if value == Some("auto") {
            return Ok(Self::Auto);
        }
        parse_bool(pass, name, value)
            .map(|yes| if yes { Self::Yes } else { Self::No })
            .map_err(|_| invalid(pass, name, value, "auto, true or false"))
    }

    /// Whether the optimizer runs after ptxcc on `func`.
    pub fn applies_to(self, func: OperationRef) -> bool {
        match self {
            Self::Yes => true,
            Self::No => false,
            Self::Auto => crate::abi::signature::gpu_module_opt_level(func).is_some_and(|level| level > 0),
        }
    }
}

/// Splits `a=1 b="x y" c={d=1}` at top-level white space.
fn split_options(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, None);
    for (index, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '{' | '[' | '(' if !quoted => depth += 1,
            '}' | ']' | ')' if !quoted => depth -= 1,
            c if c.is_whitespace() && !quoted && depth <= 0 => {
                if let Some(s) = start.take() {
                    items.push(&text[s..index]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(index);
    }
    if let Some(s) = start {
        items.push(&text[s..]);
    }
    items
}

fn unquote(value: &str) -> &str {
    value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value)
}

/// Parses a boolean option (`true`/`false`/`1`/`0`; bare means true).
pub fn parse_bool(pass: &'static str, name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        None | Some("true" | "1" | "on") => Ok(true),
        Some("false" | "0" | "off") => Ok(false),
        Some(_) => Err(invalid(pass, name, value, "true or false")),
    }
}

/// Parses an unsigned integer option.
pub fn parse_u64(pass: &'static str, name: &str, value: Option<&str>) -> Result<u64, OptionError> {
    value.and_then(|v| v.parse().ok()).ok_or_else(|| invalid(pass, name, value, "an unsigned integer"))
}

/// Parses a chip name option: a chip llc 22 knows (`sm_90`, `sm_90a`), or
/// `auto` (stored as the empty string).
fn parse_chip(pass: &'static str, name: &str, value: Option<&str>) -> Result<String, OptionError> {
    if value == Some("auto") {
        return Ok(String::new());
    }
    value
        .filter(|chip| crate::abi::target::minimum_ptx(chip).is_some())
        .map(str::to_string)
        .ok_or_else(|| invalid(pass, name, value, "a chip llc knows, such as sm_90, or auto"))
}

/// Parses a PTX version option (times ten: `80` for PTX 8.0; 0 for the
/// chip's minimum): a version LLVM 22 knows ([`crate::abi::target::KNOWN_PTX`]).
fn parse_ptx(pass: &'static str, name: &str, value: Option<&str>) -> Result<u32, OptionError> {
    value.and_then(|v| v.parse().ok()).filter(|ptx| *ptx == 0 || crate::abi::target::is_known_ptx(*ptx)).ok_or_else(
        || {
            invalid(
                pass,
                name,
                value,
                "a PTX version times ten that LLVM 22 knows, such as 80 (the highest is 90), or 0",
            )
        },
    )
}

fn invalid(pass: &'static str, name: &str, value: Option<&str>, expected: &'static str) -> OptionError {
    OptionError::Invalid { pass, name: name.to_string(), value: value.unwrap_or_default().to_string(), expected }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// The message of a bad `ptx` names the highest version LLVM knows.
    #[test]
    fn bad_ptx_names_the_highest_known_version() {
        let error = parse_ptx("p", "ptx", Some("94")).expect_err("94 is not a PTX version LLVM 22 knows");
        let highest = crate::abi::target::HIGHEST_PTX;
        assert!(error.to_string().contains(&format!("the highest is {highest})")), "{error}");
        assert_eq!(parse_ptx("p", "ptx", Some(&highest.to_string())), Ok(highest));
        assert_eq!(parse_ptx("p", "ptx", Some("0")), Ok(0));
    }

    #[rstest]
    #[case("", vec![])]
    #[case("a=1", vec!["a=1"])]
    #[case("  a=1   b=true ", vec!["a=1", "b=true"])]
    #[case("a=\"x y\" b", vec!["a=\"x y\"", "b"])]
    #[case("p={x=1 y=2} q=3", vec!["p={x=1 y=2}", "q=3"])]
    fn splits_option_text(#[case] text: &str, #[case] expected: Vec<&str>) {
        assert_eq!(split_options(text), expected);
    }

    #[rstest]
    #[case(None, Ok(true))]
    #[case(Some("true"), Ok(true))]
    #[case(Some("FALSE"), Ok(false))]
    #[case(Some("0"), Ok(false))]
    #[case(Some("yes please"), Err(()))]
    fn parses_booleans(#[case] value: Option<&str>, #[case] expected: Result<bool, ()>) {
        assert_eq!(parse_bool("p", "b", value).map_err(|_| ()), expected);
    }

    #[rstest]
    #[case(Some("256"), Ok(256))]
    #[case(Some("-1"), Err(()))]
    #[case(Some("x"), Err(()))]
    #[case(None, Err(()))]
    fn parses_unsigned(#[case] value: Option<&str>, #[case] expected: Result<u64, ()>) {
        assert_eq!(parse_u64("p", "n", value).map_err(|_| ()), expected);
    }

    #[rstest]
    #[case(Some("auto"), Ok(LlvmOptAfter::Auto))]
    #[case(None, Ok(LlvmOptAfter::Yes))]
    #[case(Some("true"), Ok(LlvmOptAfter::Yes))]
    #[case(Some("false"), Ok(LlvmOptAfter::No))]
    #[case(Some("sometimes"), Err(()))]
    fn parses_llvm_opt_after(#[case] value: Option<&str>, #[case] expected: Result<LlvmOptAfter, ()>) {
        assert_eq!(LlvmOptAfter::parse("p", "llvm-opt-after", value).map_err(|_| ()), expected);
    }

    /// `auto` follows the `O` level of the `gpu.module`'s NVVM targets
    /// (2 when left out; the lowest of several); outside a `gpu.module`, or
    /// in one without NVVM targets, llc comes next.
    #[rstest]
    #[case("llvm.func @f() { llvm.return }", false)]
    #[case("gpu.module @m { llvm.func @f() { llvm.return } }", false)]
    #[case("gpu.module @m [#nvvm.target<chip = \"sm_90\">] { llvm.func @f() { llvm.return } }", true)]
    #[case("gpu.module @m [#nvvm.target<O = 0, chip = \"sm_90\">] { llvm.func @f() { llvm.return } }", false)]
    #[case("gpu.module @m [#nvvm.target<O = 3>] { llvm.func @f() { llvm.return } }", true)]
    #[case("gpu.module @m [#nvvm.target<O = 3>, #nvvm.target<O = 0>] { llvm.func @f() { llvm.return } }", false)]
    fn auto_follows_the_nvvm_target(#[case] source: &str, #[case] expected: bool) {
        let context = crate::abi::tests::llvm_context();
        let registry = melior::dialect::DialectRegistry::new();
        crate::ir::insert_gpu_and_nvvm_dialects(&registry);
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let module = melior::ir::Module::parse(&context, source).expect("parses");
        let func = crate::ir::module_functions(module.as_operation())[0];
        assert_eq!(LlvmOptAfter::Auto.applies_to(func), expected);
        assert!(LlvmOptAfter::Yes.applies_to(func) && !LlvmOptAfter::No.applies_to(func));
    }
}
