//! Where ptxas puts a function's parameters in SASS: registers, or the
//! stack.
//!
//! Measured with NVIDIA's ptxas 13.5 (`ptxas -arch=sm_90 -c -v`, separate
//! compilation, where a function keeps the standard ABI; whole-program
//! assembly may specialize a call and often needs no stack at all):
//!
//! - parameters travel in [`PARAM_REGISTER_WORDS`] 32-bit registers, in
//!   order; each takes its size in words (at least one) from the next word
//!   aligned to its `.param` alignment (in words, at most four: a
//!   `.param .align 16 .b8 p[2]` starts at a multiple of four words);
//! - a parameter that does not fit in the words left goes to the caller's
//!   stack frame whole, and later parameters still take the words left
//!   (`[40 bytes], [16 bytes], .b32, .b32` puts the second on the stack
//!   and both words in registers);
//! - the stack area is aligned like its parameters and the frame rounded
//!   up to 8 bytes: 13 `.b32` parameters cost 8 bytes of stack, ten
//!   `.b32`, `.align 16 .b8 [2]` pairs (a struct of `f32` and `f16`
//!   flattened for a local function, whose `f16` llc aligns to 16) 32.
//!
//! `lower-struct-args` flattens a parameter only where this puts no more
//! bytes on the stack than the aggregate did (`device/plan.rs`).

use super::{layout::align_to, prototype::FunctionSignature, AbiError, DataLayout};

/// Words of parameter registers (R4-R15 in the SASS of a call).
pub const PARAM_REGISTER_WORDS: u64 = 12;

/// Bytes of `signature`'s parameters that ptxas passes on the stack.
pub fn stack_passed_bytes(layout: &DataLayout, signature: &FunctionSignature) -> Result<u64, AbiError> {
    let mut next_word = 0u64;
    let mut stack = 0u64;
    let mut frame_align = 8u64;
    for index in 0..signature.params.len() {
        let (size, align) = signature.param_footprint(layout, index)?;
        let words = size.div_ceil(4).max(1);
        let start = align_to(next_word, (align / 4).clamp(1, 4));
        if start + words <= PARAM_REGISTER_WORDS {
            next_word = start + words;
        } else {
            let align = align.clamp(4, 16);
            stack = align_to(stack, align) + words * 4;
            frame_align = frame_align.max(align);
        }
    }
    Ok(align_to(stack, frame_align))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{
        layout::{AbiType, FloatKind},
        prototype::{Linkage, ParamSignature},
    };
    use rstest::rstest;

    fn param(ty: AbiType) -> ParamSignature {
        ParamSignature { ty, byval: None, align: None, stack_align: None }
    }

    fn array(bytes: u64, align: u64) -> ParamSignature {
        let ty = AbiType::Array(Box::new(AbiType::Int(8)), bytes);
        ParamSignature { ty: AbiType::Int(8), byval: Some(ty), align: Some(align), stack_align: None }
    }

    fn signature(params: Vec<ParamSignature>, linkage: Linkage) -> FunctionSignature {
        FunctionSignature {
            name: "f".into(),
            kernel: false,
            linkage,
            declaration: false,
            address_taken: false,
            no_return: false,
            variadic: false,
            result: None,
            params,
        }
    }

    // The cases measured with ptxas 13.5 -c (module doc); the expected
    // bytes are its "stack frame" figures for the calling kernel.
    #[rstest]
    #[case::twelve_words(vec![param(AbiType::Int(32)); 12], Linkage::External, 0)]
    #[case::thirteen_words(vec![param(AbiType::Int(32)); 13], Linkage::External, 8)]
    #[case::seven_doubles(vec![param(AbiType::Int(64)); 7], Linkage::External, 8)]
    #[case::forty_eight_bytes(vec![array(48, 4)], Linkage::External, 0)]
    #[case::fifty_two_bytes(vec![array(52, 4)], Linkage::External, 56)]
    #[case::back_filled(vec![array(40, 4), array(16, 4), param(AbiType::Int(32)), param(AbiType::Int(32))], Linkage::External, 16)]
    #[case::then_full(vec![array(40, 4), array(16, 4), param(AbiType::Int(32)), param(AbiType::Int(32)), param(AbiType::Int(32))], Linkage::External, 24)]
    #[case::aligned_to_four_words(
        [vec![param(AbiType::Int(32)); 9], vec![array(16, 16)]].concat(), Linkage::External, 16)]
    #[case::double_after_nine(
        [vec![param(AbiType::Int(32)); 9], vec![param(AbiType::Int(64))]].concat(), Linkage::External, 0)]
    fn stack_bytes_as_ptxas_measures(
        #[case] params: Vec<ParamSignature>,
        #[case] linkage: Linkage,
        #[case] expected: u64,
    ) {
        let layout = DataLayout::nvptx64();
        assert_eq!(stack_passed_bytes(layout, &signature(params, linkage)).unwrap(), expected);
    }

    // A local function's `f16` is `.param .align 16 .b8 [2]`: alternating
    // with `.b32`, each pair takes five words, and the fourth pair's `f16`
    // goes to the stack (ptxas: 16 bytes; `w,h16,...` with ten: 32).
    #[test]
    fn local_half_precision_parameters_align_to_four_words() {
        let layout = DataLayout::nvptx64();
        let half = param(AbiType::Float(FloatKind::Half));
        let word = param(AbiType::Int(32));
        let pairs = [half.clone(), word.clone(), half.clone(), word.clone(), half.clone(), word.clone(), half, word];
        assert_eq!(stack_passed_bytes(layout, &signature(pairs.to_vec(), Linkage::Local)).unwrap(), 16);
    }
}
