// Two kernels launched from one host function become two gpu.modules
// (upstream's two-modules.mlir); each is lowered on its own, as the run
// nested under gpu.module lowers it.
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline -o %t.top.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.nvvm.mlir > %t.host.in
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.top.mlir | diff %t.host.in -
// RUN: cat %t.top.mlir | %gpu-binary-ptx | FileCheck %s

func.func @main() {
  %a = memref.alloc() : memref<16xi32>
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    memref.store %t, %a[%tx] : memref<16xi32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<16xi32>
    %w = arith.addi %v, %v : i32
    memref.store %w, %a[%tx] : memref<16xi32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: // gpu.binary @main_kernel
// CHECK-LABEL: .entry main_kernel(
// CHECK: st.global.b32
// CHECK-LABEL: // gpu.binary @main_kernel_0
// CHECK-LABEL: .entry main_kernel(
// CHECK: ld.global.b32
// CHECK: st.global.b32
