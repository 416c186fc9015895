// lower-alloca moves every slot to the top of the entry block. llc expands
// a large copy from param space into a loop before its SROA runs, which
// splits the entry block; SROA only promotes allocas left in the entry
// block, so a slot that came after the copy stayed in local memory (fuzz
// seed 71: 496 local bytes where llc alone has 480). (The copy is passed to
// a call here, so it stays in local memory either way.)
// RUN: %ptxcc-opt %s --lower-alloca | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %to-llvmir %s | %llc-sm90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func ptx_kernelcc @spill_after_copy(
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr {alignment = 8 : i64}
// CHECK: nvvm.read.ptx.sreg.tid.x
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
