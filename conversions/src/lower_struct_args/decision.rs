//! Seed 003's decision table for an argument that crosses a call: four facts
//! decide how it reaches the callee.
//!
//! | K (kernel's param) | B (byval) | G (grid constant) | D (direct callee) | lowering |
//! |---|---|---|---|---|
//! | yes | yes | yes | – | [`CallArgumentLowering::FromParamSpace`] |
//! | yes | yes | no | – | [`CallArgumentLowering::FromLocalCopy`] |
//! | no | yes | – | – | [`CallArgumentLowering::MoveParam`] |
//! | – | no | – | yes | [`CallArgumentLowering::DirectPrototype`] |
//! | – | no | – | no | [`CallArgumentLowering::IndirectPrototype`] |
//!
//! In ptxcc, G is "the kernel parameter is, or may become, an
//! `nvvm.grid_constant`": the target has `cvta.param` (sm_70, PTX 7.7) and
//! nothing writes through the parameter. A `byval` argument is read-only
//! from the caller's side whatever the callee does with it, since the
//! callee gets its own copy.

/// The facts about one call argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallArgument {
    /// K: the argument is a kernel's `byval` parameter (or points into it).
    pub kernel_param: bool,
    /// B: the callee takes it `byval`.
    pub byval: bool,
    /// G: the kernel parameter is, or can become, a grid constant.
    pub grid_constant: bool,
    /// D: the call names its callee.
    pub direct: bool,
}

/// How the argument reaches the callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallArgumentLowering {
    /// The call's copy is made straight from the kernel's param space: the
    /// argument is the parameter's `cvta.param` address (`ptxcc.param_to_generic`,
    /// the parameter marked `nvvm.grid_constant`), and llc copies it with
    /// `ld.param`/`st.param`, no local memory.
    FromParamSpace,
    /// The kernel parameter has a local copy (it is written, or the target
    /// has no `cvta.param`), and the call's copy is made from it.
    FromLocalCopy,
    /// A device function's `byval` argument: llc copies the caller's memory
    /// into the call's `.param` (seed 003's move-param); ptxcc leaves it.
    MoveParam,
    /// The callee's own prototype, which `lower-struct-args` may have
    /// flattened (its call sites were rewritten with it).
    DirectPrototype,
    /// An indirect call keeps the original prototype: ptxcc never changes
    /// the signature of a function whose address is taken, so no
    /// `nvptx-libcall-callee` wrapper is needed.
    IndirectPrototype,
}

/// Seed 003's decision table.
pub const fn lower_call_argument(argument: CallArgument) -> CallArgumentLowering {
    match (argument.kernel_param, argument.byval, argument.grid_constant, argument.direct) {
        (true, true, true, _) => CallArgumentLowering::FromParamSpace,
        (true, true, false, _) => CallArgumentLowering::FromLocalCopy,
        (false, true, _, _) => CallArgumentLowering::MoveParam,
        (_, false, _, true) => CallArgumentLowering::DirectPrototype,
        (_, false, _, false) => CallArgumentLowering::IndirectPrototype,
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;
    use CallArgumentLowering::*;

    #[rstest]
    #[case::k_b_g(true, true, true, true, FromParamSpace)]
    #[case::k_b_g_indirect(true, true, true, false, FromParamSpace)]
    #[case::k_b_not_g(true, true, false, true, FromLocalCopy)]
    #[case::device_byval(false, true, false, true, MoveParam)]
    #[case::device_byval_indirect(false, true, true, false, MoveParam)]
    #[case::direct(false, false, false, true, DirectPrototype)]
    #[case::direct_from_kernel(true, false, true, true, DirectPrototype)]
    #[case::indirect(false, false, false, false, IndirectPrototype)]
    fn each_row_of_seed_003s_table(
        #[case] kernel_param: bool,
        #[case] byval: bool,
        #[case] grid_constant: bool,
        #[case] direct: bool,
        #[case] expected: CallArgumentLowering,
    ) {
        let argument = CallArgument { kernel_param, byval, grid_constant, direct };
        assert_eq!(lower_call_argument(argument), expected);
    }
}
