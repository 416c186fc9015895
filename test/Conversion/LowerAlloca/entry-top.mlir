// A slot of the entry block below an op that may become a loop moves above
// it. llc expands a large copy from param space into a loop before its
// SROA runs, which splits the entry block; SROA only promotes allocas left
// in the entry block, so a slot that came after the copy stayed in local
// memory (fuzz seed 71: 496 local bytes where llc alone has 480). (The copy
// is passed to a call here, so it stays in local memory either way.) Any
// other slot stays where it is: llc computes a slot's local address where
// the alloca stands, and at the top that address was live across the calls
// above it (issue 41, rule D: ptxas spilled it; sass-rules-issue41.mlir has
// the figures).
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args --lower-alloca | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca=hoist-allocas=true | FileCheck %s --check-prefix=HOIST
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %to-llvmir %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func ptx_kernelcc @spill_after_copy(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr {alignment = 8 : i64}
// CHECK-NEXT: "ptxcc.copy_param"
// CHECK-NEXT: nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: llvm.store %{{.*}}, %[[SLOT]]
// PTX-LABEL: .entry spill_after_copy(
// PTX: .local .align 16 .b8 __local_depot0[480];
llvm.func ptx_kernelcc @spill_after_copy(%out: !llvm.ptr, %s: !llvm.ptr {llvm.byval = !llvm.array<120 x f32>, llvm.align = 16 : i64}) {
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.ptr {alignment = 8 : i64} : (i32) -> !llvm.ptr
  llvm.store %s, %slot {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  %again = llvm.load %slot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  llvm.call @consume(%again) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// -----

// CHECK-LABEL: llvm.func @after_call(
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.call @take
// CHECK: %[[A:.*]] = llvm.alloca %{{.*}} x !llvm.array<9 x i32> {alignment = 16 : i64}
// CHECK-NEXT: "llvm.intr.memcpy"(%[[A]],
// HOIST-LABEL: llvm.func @after_call(
// HOIST-NEXT: llvm.mlir.constant(1 : i32)
// HOIST-NEXT: llvm.alloca
llvm.func @after_call() {
  %p = llvm.mlir.zero : !llvm.ptr
  llvm.call @take(%p) : (!llvm.ptr) -> ()
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %n = llvm.mlir.constant(36 : i64) : i64
  %a = llvm.alloca %c1 x !llvm.array<9 x i32> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  "llvm.intr.memcpy"(%a, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}
llvm.func @take(!llvm.ptr)
