// Regression tests of the pipeline, each named after the issue and what it
// caught (issue 29).
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline=inline-copy-threshold=4 | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline=inline-copy-threshold=4 | %to-llvmir | %llc-sm90 -o %t.ptx
// The copy computes what the kernel computed (test/harness):
// RUN: python3 %repo/test/harness/diffexec.py mlir %S/Inputs/issue29-short-copy.mlir --ptxcc-opt %ptxcc-opt-path \
// RUN:   --pipeline=--ptxcc-pipeline=inline-copy-threshold=4 | FileCheck %s --check-prefix=SAME
// A PTX version LLVM 22 does not know is an error naming the highest it
// knows (llc only warned, then wrote .version 8.0 for sm_90a):
// RUN: not %ptxcc-opt %s --split-input-file '--ptxcc-pipeline=chip=sm_90a ptx=94' --emit=ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PTX94

// An 8-byte byval struct aligned to 16, written by the kernel, with
// inline-copy-threshold below 16: the copy loop's first step is not tested,
// so a copy smaller than one step copied a whole 16-byte step into the
// 8-byte slot. Now no loop: a copy of 8 bytes.
// CHECK-LABEL: llvm.func ptx_kernelcc @issue29_copy_shorter_than_a_step(
// CHECK-NOT: llvm.cond_br
// CHECK-NOT: vector<4xi32>
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT: "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %[[EIGHT]])
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.return
llvm.func @consume(!llvm.ptr)
llvm.func ptx_kernelcc @issue29_copy_shorter_than_a_step(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 16 : i64}) {
  %c = llvm.mlir.constant(7 : i32) : i32
  llvm.store %c, %s : i32, !llvm.ptr
  llvm.call @consume(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A gpu.module whose #nvvm.target names no features was read as PTX 6.0,
// which no pass accepted for sm_90 ("PTX 6.0 does not support 'sm_90'").
// MLIR 22's default features are none: the chip's minimum, PTX 7.8 (what
// gpu-module-to-binary compiles for). The field is read from param space.
// CHECK-LABEL: gpu.module @issue29_target_without_features [#nvvm.target<chip = "sm_90">]
// CHECK: llvm.func @k(
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK: llvm.load %[[P]] {alignment = 8 : i64} : !llvm.ptr<101> -> i32
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
module attributes {gpu.container_module} {
  gpu.module @issue29_target_without_features [#nvvm.target<chip = "sm_90">] {
    llvm.func @k(%a: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 8 : i64}, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %a : !llvm.ptr -> i32
      llvm.store %x, %out : i32, !llvm.ptr
      llvm.return
    }
  }
}

// PTX94: option 'ptx' of pass 'ptxcc-pipeline' expects a PTX version times ten that LLVM 22 knows, such as 80 (the highest is 90), or 0, got '94'
// SAME: diffexec: 1 kernels (1 same); 0 failing
