//! `declare_pass!`: a pass declared in one place, and the compile-time
//! helpers that build option tables from it (a pass's own, a pipeline's
//! union of its passes').

use super::OptionInfo;

/// Declares a ptxcc pass in one place, the part MLIR's `Passes.td` plays:
/// its options struct (each option once: field, type, kebab-case name,
/// default written as the text `--help` shows, description), `Default`
/// (the defaults parsed from that text), the option table, option parsing,
/// and the pass itself (name, C++-style class name for timings, anchor,
/// summary, body). Option order is `--help` order.
///
/// An option is `pub field: Type = option("name", "default", "help")`
/// (`Type` implements [`OptionValue`]); a shared group of options is
/// `pub field: Group = group()` (`Group` implements [`OptionGroup`]).
///
/// ```ignore
/// declare_pass! {
///     /// Options of `my-pass`.
///     #[derive(Clone, Debug, PartialEq, Eq)]
///     pub struct MyPassOptions {
///         /// Largest thing, in bytes.
///         pub max_size: u64 = option("max-size", "64", "largest thing in bytes"),
///         /// The target.
///         pub target: TargetOptions = group(),
///     }
///     pass "my-pass" (MyPass) on crate::ir::LLVM_FUNC: "Does one thing";
///     fn run(&self, function) -> bool { my_pass(function, self).is_ok() }
/// }
/// ```
macro_rules! declare_pass {
    (
        $(#[$meta:meta])*
        pub struct $options:ident {
            $(
                $(#[$field_meta:meta])*
                pub $field:ident : $ty:ty = $kind:ident $args:tt
            ),* $(,)?
        }
        pass $pass:literal ($class:ident) on $anchor:path: $summary:literal;
        fn run(&$self_:ident, $op:ident) -> bool $body:block
    ) => {
        $(#[$meta])*
        pub struct $options {
            $( $(#[$field_meta])* pub $field: $ty, )*
        }

        impl Default for $options {
            fn default() -> Self {
                Self { $( $field: $crate::options::declare_pass!(@default $kind $ty, $pass, $args), )* }
            }
        }

        impl $crate::options::PassOptions for $options {
            const PASS: &'static str = $pass;
            const SUMMARY: &'static str = $summary;
            const OPTIONS: &'static [$crate::options::OptionInfo] =
                &$crate::options::concat::<{ 0 $(+ $crate::options::declare_pass!(@count $kind $ty))* }>(&[
                    $( $crate::options::declare_pass!(@infos $kind $ty, $args) ),*
                ]);

            fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), $crate::options::OptionError> {
                $( $crate::options::declare_pass!(@set $kind self, $field, $ty, name, value, $args); )*
                Err($crate::options::unknown_option::<Self>(name))
            }
        }

        impl $crate::pass::PtxccPass for $options {
            const NAME: &'static str = stringify!($class);
            const ANCHOR: &'static str = $anchor;
            const ID: &'static $crate::pass::PassId = {
                static ID: $crate::pass::PassId = $crate::pass::PassId;
                &ID
            };

            fn run(&$self_, $op: ::melior::ir::OperationRef) -> bool $body
        }
    };
    (@default option $ty:ty, $pass:literal, ($name:literal, $default:literal, $description:expr)) => {
        <$ty as $crate::options::OptionValue>::parse_option($pass, $name, Some($default))
            .expect(concat!("the default of ", $pass, "'s ", $name, " parses"))
    };
    (@default group $ty:ty, $pass:literal, ()) => {
        <$ty as Default>::default()
    };
    (@count option $ty:ty) => { 1 };
    (@count group $ty:ty) => { <$ty as $crate::options::OptionGroup>::OPTIONS.len() };
    (@infos option $ty:ty, ($name:literal, $default:literal, $description:expr)) => {
        &[$crate::options::OptionInfo { name: $name, default: $default, description: $description }]
    };
    (@infos group $ty:ty, ()) => { <$ty as $crate::options::OptionGroup>::OPTIONS };
    (@set option $self_:ident, $field:ident, $ty:ty, $name_var:ident, $value:ident, ($name:literal, $default:literal, $description:expr)) => {
        if $name_var == $name {
            $self_.$field = <$ty as $crate::options::OptionValue>::parse_option(Self::PASS, $name_var, $value)?;
            return Ok(());
        }
    };
    (@set group $self_:ident, $field:ident, $ty:ty, $name_var:ident, $value:ident, ()) => {
        if let Some(result) = $crate::options::OptionGroup::set(&mut $self_.$field, Self::PASS, $name_var, $value) {
            return result;
        }
    };
}
pub(crate) use declare_pass;

/// An option table with no entry yet (what [`concat`] and [`union`] fill).
const NO_OPTION: OptionInfo = OptionInfo { name: "", default: "", description: "" };

/// The option tables `lists`, one after the other (`N`: their total
/// length), at compile time: a pass's table from its options and groups.
/// A name given twice stops the build.
pub const fn concat<const N: usize>(lists: &[&[OptionInfo]]) -> [OptionInfo; N] {
    let (table, count) = union::<N>(lists);
    assert!(count == N, "a pass declares an option name twice, or N is not the total length of the tables");
    table
}

/// The option tables `lists`, one after the other, each name kept at its
/// first place only (`N`: at least their total length), and how many
/// entries that leaves: a pipeline's table from its passes', where options
/// two passes share (`opt-byval`, `chip`, ...) are one option. Passes that
/// share an option must give it the same default, or the build stops.
pub const fn union<const N: usize>(lists: &[&[OptionInfo]]) -> ([OptionInfo; N], usize) {
    let mut table = [NO_OPTION; N];
    let (mut list, mut next) = (0, 0);
    while list < lists.len() {
        let mut index = 0;
        while index < lists[list].len() {
            let option = lists[list][index];
            let mut seen = 0;
            while seen < next && !str_eq(table[seen].name, option.name) {
                seen += 1;
            }
            if seen == next {
                table[next] = option;
                next += 1;
            } else {
                // One value reaches every pass that has the option, so they
                // must agree on where it starts.
                assert!(
                    str_eq(table[seen].default, option.default),
                    "an option name is given twice with different defaults (two passes of a pipeline that share it, \
                     or one pass)"
                );
            }
            index += 1;
        }
        list += 1;
    }
    (table, next)
}

/// `a == b`, at compile time.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
