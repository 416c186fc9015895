// Regression tests of lower-struct-args, each named after the issue and
// what it caught. Issue 29 found these with hostile inputs; each crashed,
// freed memory twice, read freed memory or wrote invalid IR. Valgrind runs
// on this file too (`cargo xtask test`, test/memcheck).
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file '--lower-struct-args=flatten-always=true' | FileCheck %s --check-prefix=ALWAYS
// RUN: %ptxcc-opt %s --split-input-file '--lower-struct-args=whole-program=true flatten-always=true' | FileCheck %s --check-prefix=WHOLE
// Every output translates and llc compiles it:
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %ptxcc-opt %s '--ptxcc-pipeline=flatten-always=true whole-program=true' | %to-llvmir | %llc-sm90 -o %t.ptx
// and every kernel computes what it computed (test/harness):
// RUN: python3 %repo/test/harness/diffexec.py mlir %s --split-input-file --ptxcc-opt %ptxcc-opt-path | FileCheck %s --check-prefix=SAME
// RUN: python3 %repo/test/harness/diffexec.py mlir %s --split-input-file --ptxcc-opt %ptxcc-opt-path \
// RUN:   '--pipeline=--ptxcc-pipeline=flatten-always=true whole-program=true' | FileCheck %s --check-prefix=SAME
// SAME: diffexec: 11 kernels (11 same); 0 failing

// One llvm.intr.assume whose bundles name two byval parameters: each
// parameter's plan dropped it, so it was erased twice (SIGABRT, double
// free). Now one erase list per function: dropped once.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue29_assume_names_two_byval(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(i32, i32)>}, %[[B:[^:]*]]: !llvm.ptr
// CHECK-NOT: llvm.intr.assume
// CHECK: %[[PA:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NOT: llvm.intr.assume
// CHECK: %[[X:.*]] = "ptxcc.load_param"(%[[PA]]) {alignment = 8 : i64, offset = 0 : i64}
// CHECK-NEXT: llvm.store %[[X]]
llvm.func ptx_kernelcc @issue29_assume_names_two_byval(%a: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 8 : i64}, %b: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %t = llvm.mlir.constant(true) : i1
  llvm.intr.assume %t ["nonnull"(%a : !llvm.ptr), "nonnull"(%b : !llvm.ptr)] : i1
  %x = llvm.load %a : !llvm.ptr -> i32
  llvm.store %x, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A null test of a kernel byval pointer, stored through a zext: the fold
// erased the icmp, then read its name (use after free, silent in release
// builds). The comparison folds to false.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue29_null_test_read_after_erase(
// CHECK-NOT: llvm.icmp
// CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT: %[[Z:.*]] = llvm.zext %[[FALSE]] : i1 to i32
// CHECK-NEXT: llvm.store %[[Z]]
llvm.func ptx_kernelcc @issue29_null_test_read_after_erase(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %null = llvm.mlir.zero : !llvm.ptr
  %z = llvm.icmp "eq" %s, %null : !llvm.ptr
  %w = llvm.zext %z : i1 to i32
  llvm.store %w, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// `ptrtoint` to i1 keeps the address's low bit, which is 0 for an aligned
// parameter: comparing it with 0 is no null test (it was folded to false, a
// wrong result). It escapes like any other ptrtoint: a local copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue29_ptrtoint_i1_is_no_null_test(
// CHECK: "ptxcc.copy_param"
// CHECK: %[[I:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr to i1
// CHECK: llvm.icmp "eq" %[[I]]
llvm.func ptx_kernelcc @issue29_ptrtoint_i1_is_no_null_test(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %zero = llvm.mlir.constant(false) : i1
  %i = llvm.ptrtoint %s : !llvm.ptr to i1
  %z = llvm.icmp "eq" %i, %zero : i1
  llvm.store %z, %out : i1, !llvm.ptr
  llvm.return
}

// -----

// The internal clone of a hidden function kept `hidden` (local linkage must
// have default visibility: LLVM's verifier rejected the output), and its
// name `f_ptxcc` was taken by a global ("redefinition of symbol" on the
// pass's own output): the clone is `f_ptxcc_1`, internal, default
// visibility. With whole-program the function itself becomes internal, and
// default too.
// ALWAYS-LABEL: llvm.func internal @issue29_hidden_clone_ptxcc_1(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr)
// ALWAYS-LABEL: llvm.func hidden @issue29_hidden_clone(
// ALWAYS: llvm.call @issue29_hidden_clone_ptxcc_1(
// ALWAYS-LABEL: llvm.func ptx_kernelcc @issue29_hidden_clone_caller(
// ALWAYS: llvm.call @issue29_hidden_clone_ptxcc_1(
// WHOLE-LABEL: llvm.func internal @issue29_hidden_clone(
// WHOLE-NOT: llvm.func {{.*}}@issue29_hidden_clone_ptxcc
// WHOLE-LABEL: llvm.func ptx_kernelcc @issue29_hidden_clone_caller(
llvm.func hidden @issue29_hidden_clone(%s: !llvm.struct<(i32, i32)>, %o: !llvm.ptr) {
  %x = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
  %y = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
  %z = llvm.add %x, %y : i32
  llvm.store %z, %o : i32, !llvm.ptr
  llvm.return
}
llvm.mlir.global external @issue29_hidden_clone_ptxcc(0 : i32) : i32
llvm.func ptx_kernelcc @issue29_hidden_clone_caller(%p: !llvm.ptr) {
  %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i32, i32)>
  llvm.call @issue29_hidden_clone(%s, %p) : (!llvm.struct<(i32, i32)>, !llvm.ptr) -> ()
  llvm.return
}

// -----

// A naked function reads its parameters where the ABI puts them: it was
// split into a wrapper that used its arguments (invalid for a naked
// function). It keeps its signature, and its calls stay.
// ALWAYS-LABEL: llvm.func @issue29_naked(
// ALWAYS-SAME: !llvm.struct<(i32, i32)>) attributes {passthrough = ["naked", "noinline"]}
// ALWAYS-NEXT: llvm.unreachable
// ALWAYS-NOT: @issue29_naked_ptxcc
// ALWAYS: llvm.call @issue29_naked(%{{.*}}) : (!llvm.struct<(i32, i32)>) -> ()
// (The call never runs: the harness's integers are 0 to 7.)
llvm.func @issue29_naked(%s: !llvm.struct<(i32, i32)>) attributes {passthrough = ["naked", "noinline"]} {
  llvm.unreachable
}
llvm.func ptx_kernelcc @issue29_naked_caller(%p: !llvm.ptr, %n: i32) {
  %never = llvm.mlir.constant(1000 : i32) : i32
  %call = llvm.icmp "eq" %n, %never : i32
  llvm.cond_br %call, ^call, ^done
^call:
  %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i32, i32)>
  llvm.call @issue29_naked(%s) : (!llvm.struct<(i32, i32)>) -> ()
  llvm.br ^done
^done:
  llvm.return
}

// -----

// `allocsize` names parameters by number (element size in the high 32 bits,
// count or 0xFFFFFFFF in the low ones): after the struct before it was
// flattened into two parameters, parameter 1 is parameter 2 (1 << 32 |
// 0xFFFFFFFF = 8589934591 became 2 << 32 | 0xFFFFFFFF = 12884901887).
// ALWAYS-LABEL: llvm.func internal @issue29_allocsize_renumbered(
// ALWAYS-SAME: %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64) -> !llvm.ptr attributes {passthrough = {{\[}}["allocsize", "12884901887"], "noinline"]}
llvm.func internal @issue29_allocsize_renumbered(%s: !llvm.struct<(i32, i32)>, %n: i64) -> !llvm.ptr attributes {passthrough = [["allocsize", "8589934591"], "noinline"]} {
  %x = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
  %y = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
  %z = llvm.mlir.zero : !llvm.ptr
  llvm.return %z : !llvm.ptr
}
llvm.func ptx_kernelcc @issue29_allocsize_caller(%p: !llvm.ptr, %n: i64) {
  %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i32, i32)>
  %r = llvm.call @issue29_allocsize_renumbered(%s, %n) : (!llvm.struct<(i32, i32)>, i64) -> !llvm.ptr
  llvm.store %r, %p : !llvm.ptr, !llvm.ptr
  llvm.return
}

// -----

// An empty string in a passthrough list: reading it panicked (melior's
// StringAttribute::value on empty text); the function is flattened as any
// other.
// ALWAYS-LABEL: llvm.func internal @issue29_empty_passthrough(
// ALWAYS-SAME: %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: !llvm.ptr) attributes {passthrough = [""]}
llvm.func internal @issue29_empty_passthrough(%s: !llvm.struct<(i32, i32)>, %o: !llvm.ptr) attributes {passthrough = [""]} {
  %x = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
  %y = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
  %z = llvm.add %x, %y : i32
  llvm.store %z, %o : i32, !llvm.ptr
  llvm.return
}
llvm.func ptx_kernelcc @issue29_empty_passthrough_caller(%p: !llvm.ptr) {
  %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i32, i32)>
  llvm.call @issue29_empty_passthrough(%s, %p) : (!llvm.struct<(i32, i32)>, !llvm.ptr) -> ()
  llvm.return
}

// -----

// A memcpy from a kernel byval parameter with a constant length longer than
// any param space (dead code: it never runs on these inputs) became a
// ptxcc.copy_param that ptxcc's own verifier refuses (sizes are at most
// 32764 bytes). It stays a memcpy, from param space.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue29_memcpy_longer_than_param_space(
// CHECK-NOT: ptxcc.copy_param
// CHECK: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr<101>, i64) -> ()
llvm.func ptx_kernelcc @issue29_memcpy_longer_than_param_space(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr, %n: i32) {
  %never = llvm.mlir.constant(1000 : i32) : i32
  %copy = llvm.icmp "eq" %n, %never : i32
  llvm.cond_br %copy, ^copy, ^done
^copy:
  %length = llvm.mlir.constant(40000 : i64) : i64
  "llvm.intr.memcpy"(%out, %s, %length) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.br ^done
^done:
  llvm.return
}

// -----

// A local copy passed on as a `byval` argument is aligned as llc reads it
// there: at the call's llvm.align, else at the type's ABI alignment (16
// for an i128: ld.local.v2.b64), not at the parameter's declared 8. The
// copy was 8-aligned (fuzz seed 5054: the host harness's movaps faulted on
// it; on the GPU ptxas may place an 8-aligned depot at 8 mod 16). With
// llvm.align 8 at the call (the counter-case) llc reads 8 bytes at a time
// and the copy stays 8-aligned.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue41_copy_passed_byval(
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i64, i128)> {alignment = 16 : i64}
// CHECK-LABEL: llvm.func ptx_kernelcc @issue41_copy_passed_byval_aligned_call(
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i64, i128)> {alignment = 8 : i64}
llvm.func internal @issue41_relayed(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i128)>}) -> i32 attributes {no_inline} {
  %c = llvm.mlir.constant(63 : i64) : i64
  llvm.store %c, %p {alignment = 8 : i64} : i64, !llvm.ptr
  %q = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i128)>
  %v = llvm.load %q {alignment = 16 : i64} : !llvm.ptr -> i128
  %l = llvm.load %p {alignment = 8 : i64} : !llvm.ptr -> i64
  %t = llvm.trunc %v : i128 to i32
  %u = llvm.trunc %l : i64 to i32
  %r = llvm.add %t, %u : i32
  llvm.return %r : i32
}
llvm.func ptx_kernelcc @issue41_copy_passed_byval(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i128)>, llvm.align = 8 : i64}, %out: !llvm.ptr, %x: i64) {
  llvm.store %x, %s {alignment = 8 : i64} : i64, !llvm.ptr
  %r = llvm.call @issue41_relayed(%s) : (!llvm.ptr {llvm.byval = !llvm.struct<(i64, i128)>}) -> i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %o = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  llvm.store %r, %o {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}
llvm.func ptx_kernelcc @issue41_copy_passed_byval_aligned_call(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i128)>, llvm.align = 8 : i64}, %out: !llvm.ptr, %x: i64) {
  llvm.store %x, %s {alignment = 8 : i64} : i64, !llvm.ptr
  %r = llvm.call @issue41_relayed(%s) : (!llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(i64, i128)>}) -> i32
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %o = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  llvm.store %r, %o {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// The same for a local callee that takes the aggregate by value and stores
// it into a slot of its own: the slot is as aligned as the accesses claim
// (an i128 read at 16 of a parameter declared 8-aligned), not the
// declaration's 8.
// CHECK-LABEL: llvm.func internal @issue41_by_value_slot(
// CHECK-SAME: %{{.*}}: !llvm.struct<(i64, i64, i128)>
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i64, i64, i128)> {alignment = 16 : i64}
llvm.func internal @issue41_by_value_slot(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i64, i128)>, llvm.align = 8 : i64}) -> i64 attributes {no_inline} {
  %c = llvm.mlir.constant(1 : i64) : i64
  llvm.store %c, %p {alignment = 8 : i64} : i64, !llvm.ptr
  %q = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i64, i64, i128)>
  %v = llvm.load %q {alignment = 16 : i64} : !llvm.ptr -> i128
  %w = llvm.add %v, %v : i128
  llvm.store %w, %q {alignment = 16 : i64} : i128, !llvm.ptr
  %x = llvm.load %q {alignment = 16 : i64} : !llvm.ptr -> i128
  %y = llvm.trunc %x : i128 to i64
  %l = llvm.load %p {alignment = 8 : i64} : !llvm.ptr -> i64
  %r = llvm.add %l, %y : i64
  llvm.return %r : i64
}
llvm.func ptx_kernelcc @issue41_by_value_slot_caller(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i64, i64, i128)>, llvm.align = 16 : i64}, %out: !llvm.ptr) {
  %r = llvm.call @issue41_by_value_slot(%s) : (!llvm.ptr {llvm.byval = !llvm.struct<(i64, i64, i128)>}) -> i64
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %o = llvm.getelementptr %out[%tid] : (!llvm.ptr, i32) -> !llvm.ptr, i64
  llvm.store %r, %o {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.return
}
