//! The PTX target a function is compiled for: SM version, PTX ISA version,
//! and what follows from them (param-space limit, `cvta.param`, packed
//! `f32x2` registers).
//!
//! `llc` takes the target from its command line (`-mcpu`, `-mattr`): the
//! PTX version is the highest `+ptxNN` feature, or the chip's minimum when
//! none is given, and a version below the chip's minimum is an error. Front
//! ends record the target they compile for in each function (`target_cpu`,
//! `target_features`, what clang writes); [`Target::resolve`] takes the
//! chip from there, else from the default (the pass option, which should be
//! what is given to `llc -mcpu`), and the highest PTX version of the two
//! (`llc` appends `-mattr` to a function's features).

use std::fmt;

use super::AbiError;

/// Param bytes a kernel may declare before PTX 8.1 or below sm_70.
pub const PARAM_LIMIT_SMALL: u64 = 4096;
/// Param bytes a kernel may declare from PTX 8.1 on sm_70 and newer.
pub const PARAM_LIMIT_LARGE: u64 = ptxcc_dialect::verify::MAX_PARAM_SPACE as u64;

/// The PTX ISA versions (times ten) LLVM 22's NVPTX backend knows, as
/// `+ptxNN` features (`llc -mattr=help`), oldest first. `llc` warns about
/// any other and compiles for the chip's minimum instead: a target the user
/// did not ask for.
pub const KNOWN_PTX: &[u32] = &[
    32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87,
    88, 90,
];

/// The highest PTX version (times ten) LLVM 22 knows.
pub const HIGHEST_PTX: u32 = KNOWN_PTX[KNOWN_PTX.len() - 1];

/// Whether LLVM 22 knows PTX version `ptx` (times ten).
pub fn is_known_ptx(ptx: u32) -> bool {
    KNOWN_PTX.contains(&ptx)
}

/// A chip and a PTX ISA version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The chip as written (`sm_90a`).
    pub chip: String,
    /// SM version number (`90` for `sm_90a`).
    pub sm: u32,
    /// PTX ISA version times ten (`80` for PTX 8.0).
    pub ptx: u32,
}

/// Splits `sm_90a` into `(90, "a")`.
fn parse_chip(chip: &str) -> Option<(u32, &str)> {
    let rest = chip.strip_prefix("sm_")?;
    let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let sm = rest[..digits].parse().ok()?;
    let suffix = &rest[digits..];
    matches!(suffix, "" | "a" | "f").then_some((sm, suffix))
}

/// The lowest PTX version `llc` 22 accepts for a chip (and picks when no
/// `+ptxNN` feature is given).
pub fn minimum_ptx(chip: &str) -> Option<u32> {
    let (sm, suffix) = parse_chip(chip)?;
    let variants_exist = match suffix {
        "a" => matches!(sm, 90 | 100 | 101 | 103 | 110 | 120 | 121),
        "f" => matches!(sm, 100 | 101 | 103 | 110 | 120 | 121),
        _ => true,
    };
    if !variants_exist {
        return None;
    }
    let base = match sm {
        20 | 21 | 30 | 35 => 32,
        32 => 40,
        37 => 41,
        50 => 40,
        52 => 41,
        53 => 42,
        60..=62 => 50,
        70 => 60,
        72 => 61,
        75 => 63,
        80 => 70,
        86 => 71,
        87 => 74,
        88 => 90,
        89 | 90 => 78,
        100 | 101 => 86,
        103 => 88,
        110 => 90,
        120 => 87,
        121 => 88,
        _ => return None,
    };
    Some(match suffix {
        "a" if sm == 90 => 80,
        "f" => base.max(88),
        _ => base,
    })
}

/// The highest `+ptxNN` in a feature list (`+ptx81,+sm_90`).
pub fn ptx_feature<'a>(features: impl IntoIterator<Item = &'a str>) -> Option<u32> {
    features
        .into_iter()
        .filter_map(|feature| feature.trim().strip_prefix("+ptx").and_then(|version| version.parse().ok()))
        .max()
}

impl Target {
    /// A target from a chip and an optional explicit PTX version, with
    /// `llc`'s rules: no version means the chip's minimum; a version below
    /// the minimum is an error, and so is one LLVM 22 does not know (where
    /// `llc` only warns and compiles for the minimum).
    pub fn new(chip: &str, ptx: Option<u32>) -> Result<Self, AbiError> {
        let (sm, _) = parse_chip(chip).ok_or_else(|| AbiError::UnknownChip(chip.to_string()))?;
        let minimum = minimum_ptx(chip).ok_or_else(|| AbiError::UnknownChip(chip.to_string()))?;
        if let Some(unknown) = ptx.filter(|ptx| !is_known_ptx(*ptx)) {
            return Err(AbiError::UnknownPtx(unknown));
        }
        let ptx = ptx.unwrap_or(minimum);
        if ptx < minimum {
            return Err(AbiError::PtxTooOld { chip: chip.to_string(), ptx, minimum });
        }
        Ok(Target { chip: chip.to_string(), sm, ptx })
    }

    /// The target of one function, as `llc` will compile it: `chip` and
    /// `ptx` (`llc`'s `-mcpu` and `-mattr=+ptxNN`, which win: `llc` ignores
    /// the functions' own attributes) where given, else the function's
    /// `target_cpu` and highest `+ptxNN` feature, else `sm_90` and the
    /// chip's minimum PTX version.
    pub fn resolve(
        chip: Option<&str>,
        ptx: Option<u32>,
        function_chip: Option<&str>,
        function_features: Option<&[String]>,
    ) -> Result<Self, AbiError> {
        let chip = chip.or(function_chip).unwrap_or(crate::options::DEFAULT_CHIP);
        let from_function = function_features.and_then(|features| ptx_feature(features.iter().map(String::as_str)));
        Target::new(chip, ptx.or(from_function))
    }

    /// Bytes of `.param` space a kernel may declare.
    pub fn param_limit(&self) -> u64 {
        if self.sm >= 70 && self.ptx >= 81 {
            PARAM_LIMIT_LARGE
        } else {
            PARAM_LIMIT_SMALL
        }
    }

    /// Whether PTX's own `alloca` exists (sm_52 and PTX 7.3), which `llc`
    /// lowers a dynamic `alloca` to.
    pub fn has_dynamic_alloca(&self) -> bool {
        self.sm >= 52 && self.ptx >= 73
    }

    /// Whether `cvta.param` exists (sm_70 and PTX 7.7).
    pub fn has_cvta_param(&self) -> bool {
        self.sm >= 70 && self.ptx >= 77
    }

    /// Whether `v2f32`/`v2i32` are legal registers (sm_100 and PTX 8.6),
    /// which changes how float pairs are passed.
    pub fn has_f32x2(&self) -> bool {
        self.sm >= 100 && self.ptx >= 86
    }
}

/// `sm_90, PTX 8.0`.
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, PTX {}.{}", self.chip, self.ptx / 10, self.ptx % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chip's minimum PTX version is one `Target::new` accepts: the two
    /// tables (`minimum_ptx`, `KNOWN_PTX`) agree.
    #[test]
    fn every_chip_minimum_is_a_known_version() {
        let chips = (20..=130).flat_map(|sm| ["", "a", "f"].map(|suffix| format!("sm_{sm}{suffix}")));
        let mut checked = 0;
        for chip in chips {
            if let Some(minimum) = minimum_ptx(&chip) {
                assert!(is_known_ptx(minimum), "{chip}: PTX {minimum}");
                assert!(Target::new(&chip, None).is_ok(), "{chip}");
                checked += 1;
            }
        }
        assert!(checked > 20, "only {checked} chips");
    }

    /// Unknown versions are refused between and beyond the known ones.
    #[test]
    fn unknown_versions_are_refused() {
        assert_eq!(Target::new("sm_90", Some(94)), Err(AbiError::UnknownPtx(94)));
        assert_eq!(Target::new("sm_90", Some(79)), Err(AbiError::UnknownPtx(79)));
        assert_eq!(Target::new("sm_90", Some(HIGHEST_PTX)).map(|t| t.ptx), Ok(HIGHEST_PTX));
    }
}

/// A kernel whose parameters do not fit the target's `.param` space.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "kernel '{kernel}' needs {bytes} bytes of .param space, more than the {limit} bytes {target} allows{hint}",
    hint = if *limit < PARAM_LIMIT_LARGE { " (PTX 8.1 on sm_70 or newer allows 32764)" } else { "" }
)]
pub struct ParamSpaceError {
    /// The kernel's name.
    pub kernel: String,
    /// Bytes its parameters need.
    pub bytes: u64,
    /// Bytes the target allows.
    pub limit: u64,
    /// The target, printed.
    pub target: String,
}
