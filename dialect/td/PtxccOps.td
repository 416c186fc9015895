//===- PtxccOps.td - the ptxcc calling-convention dialect --*- tablegen -*-===//
//
// The single source of the `ptxcc` dialect. Everything else is derived from
// this file:
//   * the typed Rust builders (`melior::dialect!` in dialect/src/lib.rs,
//     `ptxcc_dialect::ops::load_param(...)`), which every producer uses;
//   * by dialect/build.rs (the `tblgen` crate): the IRDL definition that
//     registers the dialect at run time (and that upstream
//     `mlir-opt --irdl-file=...` can read, from `ptxcc-opt --print-irdl`),
//     the op table `ptxcc_dialect::OPS` and the name constants
//     `ptxcc_dialect::names::LOAD_PARAM`, ...
//
// IRDL cannot express everything ODS can (exact attribute widths, address
// spaces inside a C++ predicate, custom assembly formats, traits). Those
// rules are listed in each op's "Verification" paragraph and are checked by
// `ptxcc_dialect::verify` (dialect/src/verify.rs), which also applies the
// dialect's attribute-name rules to every op: a byte `offset` is not
// negative and below 32764, a `size` is positive and at most 32764 (the
// largest param space), an `alignment` is a power of two.
//
//===----------------------------------------------------------------------===//

#ifndef PTXCC_OPS
#define PTXCC_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"

def Ptxcc_Dialect : Dialect {
  let name = "ptxcc";
  let cppNamespace = "::ptxcc";
  let summary = "The PTX calling convention, made explicit.";
  let description = [{
    `ptxcc` names what LLVM IR can only imply about the PTX calling
    convention: reads from the `.param` state space at constant offsets,
    conversions of param-space addresses to generic or global ones
    (`cvta.param`), conversions of generic pointers to a specific state
    space, and copies of by-value arguments into local memory.

    The ops work on LLVM-dialect values. `lower-struct-args` introduces them;
    `convert-ptxcc-to-llvm` turns every one of them back into LLVM/NVVM
    dialect operations that `mlir-translate` and `llc` understand.

    Address spaces follow NVPTX: generic 0, global 1, shared 3, const 4,
    local 5, param 101.
  }];
}

// A pointer into the kernel parameter state space (`.param`, address space
// 101): the value of `llvm.addrspacecast %byval_arg : !llvm.ptr to
// !llvm.ptr<101>`.
def Ptxcc_ParamPointer : LLVM_PointerInAddressSpace<101>;

// A pointer into the global state space (address space 1).
def Ptxcc_GlobalPointer : LLVM_PointerInAddressSpace<1>;

class Ptxcc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ptxcc_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// load_param
//===----------------------------------------------------------------------===//

def Ptxcc_LoadParamOp : Ptxcc_Op<"load_param"> {
  let summary = "Load a value from param space at a constant byte offset.";
  let description = [{
    Reads one value of a legal PTX type from the parameter state space. The
    address is the param-space pointer `ptr` plus the constant byte `offset`;
    `alignment` is the alignment in bytes the access may assume (at least 1,
    a power of two). This is the LDPARAM of seed 002: a load of a field of a
    kernel's `byval` aggregate, with the GEP path already folded to one byte
    offset by the ABI model.

    Verification (beyond IRDL): `offset` and `alignment` are `i64`
    attributes, `offset` is not negative and below 32764 (the largest param
    space), `alignment` is a power of two, and `ptr` is an `!llvm.ptr<101>`.

    Example (the `[4 x i32]` element 3 of `{f64, i8, [4 x i32]}`):

    ```mlir
    %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
    %a3 = "ptxcc.load_param"(%p) <{offset = 24 : i64, alignment = 4 : i64}>
        : (!llvm.ptr<101>) -> i32
    ```

    `convert-ptxcc-to-llvm` turns it into

    ```mlir
    %0 = llvm.getelementptr inbounds %p[24] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
    %a3 = llvm.load %0 {alignment = 4 : i64} : !llvm.ptr<101> -> i32
    ```

    which `llc` prints as `ld.param.b32 %r1, [k_param_0+24];`.
  }];
  let arguments = (ins Ptxcc_ParamPointer:$ptr, I64Attr:$offset,
                       I64Attr:$alignment);
  let results = (outs LLVM_LoadableType:$result);
}

//===----------------------------------------------------------------------===//
// param_to_generic
//===----------------------------------------------------------------------===//

def Ptxcc_ParamToGenericOp : Ptxcc_Op<"param_to_generic"> {
  let summary = "Convert a kernel param-space address to a generic address.";
  let description = [{
    The cast-only fast path of seed 002 (CVT_PARAM_TO_GENERIC): the address
    of a kernel's `byval` argument escapes to a consumer that only reads
    through it, so instead of copying the argument to local memory the
    param-space address is converted with `cvta.param`.

    Only valid in kernels (`cvta.param` on a device function's parameter
    gives an invalid pointer) and only on targets that have `cvta.param`
    (sm_70 and PTX 7.7 or later). `ptr` must be the param-space view of a
    parameter of the enclosing kernel: `convert-ptxcc-to-llvm` marks that
    parameter `nvvm.grid_constant` and the function `nvvm.kernel`, without
    which `llc` would copy the struct to local memory after all.

    Example:

    ```mlir
    %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
    %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
    llvm.call @consume(%g) : (!llvm.ptr) -> ()
    ```

    becomes `%g = llvm.addrspacecast %p : !llvm.ptr<101> to !llvm.ptr` with
    `nvvm.grid_constant` on `%s`; `llc` prints `cvta.param.u64`.
  }];
  let arguments = (ins Ptxcc_ParamPointer:$ptr);
  let results = (outs LLVM_DefaultPointer:$result);
}

//===----------------------------------------------------------------------===//
// param_to_global
//===----------------------------------------------------------------------===//

def Ptxcc_ParamToGlobalOp : Ptxcc_Op<"param_to_global"> {
  let summary = "Convert a kernel param-space address to a global address.";
  let description = [{
    Like `ptxcc.param_to_generic` (same rules: kernels only, the parameter
    becomes a grid constant), for a consumer that wants a pointer in the
    global state space (CVT_PARAM_TO_GLOBAL of seed 002). NVPTX has no direct
    param-to-global conversion, so `convert-ptxcc-to-llvm` goes through the
    generic space: `cvta.param` then `cvta.to.global`.

    Example:

    ```mlir
    %g = "ptxcc.param_to_global"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
    ```

    becomes

    ```mlir
    %0 = llvm.addrspacecast %p : !llvm.ptr<101> to !llvm.ptr
    %g = llvm.addrspacecast %0 : !llvm.ptr to !llvm.ptr<1>
    ```
  }];
  let arguments = (ins Ptxcc_ParamPointer:$ptr);
  let results = (outs Ptxcc_GlobalPointer:$result);
}

//===----------------------------------------------------------------------===//
// generic_to_as
//===----------------------------------------------------------------------===//

def Ptxcc_GenericToAsOp : Ptxcc_Op<"generic_to_as"> {
  let summary = "Convert a generic pointer to a specific address space.";
  let description = [{
    CVT_GENERIC_TO_AS of seed 002: a generic pointer that is known to point
    into one state space is converted to a pointer of that space
    (`cvta.to.global`, `cvta.to.shared`, `cvta.to.const`, `cvta.to.local`).
    The target space is the address space of the result type.

    Verification (beyond IRDL): `ptr` is in the generic address space 0 and
    the result is in global (1), shared (3), const (4) or local (5).

    Example:

    ```mlir
    %g = "ptxcc.generic_to_as"(%p) : (!llvm.ptr) -> !llvm.ptr<1>
    ```

    becomes `%g = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>`.
  }];
  let arguments = (ins LLVM_DefaultPointer:$ptr);
  let results = (outs LLVM_AnyPointer:$result);
}

//===----------------------------------------------------------------------===//
// copy_param
//===----------------------------------------------------------------------===//

def Ptxcc_CopyParamOp : Ptxcc_Op<"copy_param"> {
  let summary = "Copy a by-value argument from param space into a local slot.";
  let description = [{
    The copy of seed 001 (NVPTXCopyByValArgs): `size` bytes are copied from
    the param-space pointer `src` to the local slot `dst` (an alloca, in the
    generic or the local address space). `alignment` is the alignment both
    sides are known to have; it chooses the access width.

    `convert-ptxcc-to-llvm` expands copies of at most `inline-copy-threshold`
    bytes (default 64) holding at most 16 registers into loads and stores of
    the widest legal width: `vector<4xi32>` when 16-byte aligned (with
    `vector-copy`, the default), `i64` when 8-byte aligned, scalars
    otherwise, and smaller accesses for a tail; into a slot `llc`'s SROA can
    break up, one access per field instead, every byte once. Larger copies
    become a loop of the widest access (1-aligned copies included), marked
    not to be unrolled, the tail unrolled after it.

    Verification (beyond IRDL): `size` and `alignment` are `i64` attributes,
    `size` is positive and at most 32764 (the largest param space: a copy
    of a parameter is never larger), `alignment` is a power of two, `src` is an
    `!llvm.ptr<101>` and `dst` is in the generic or the local address space.

    Example:

    ```mlir
    %slot = llvm.alloca %one x !llvm.array<32 x i8> {alignment = 16 : i64}
        : (i32) -> !llvm.ptr<5>
    "ptxcc.copy_param"(%p, %slot) <{size = 32 : i64, alignment = 16 : i64}>
        : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
    ```

    becomes two `vector<4xi32>` loads from `%p` and two stores to `%slot`,
    which `llc` prints as `ld.param.v4.b32` / `st.local.v4.b32`.
  }];
  let arguments = (ins Ptxcc_ParamPointer:$src, LLVM_AnyPointer:$dst,
                       I64Attr:$size, I64Attr:$alignment);
}

#endif // PTXCC_OPS
