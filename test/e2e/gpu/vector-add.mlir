// A kernel written with gpu.launch inside host code, in the style of
// upstream's mlir/test/Integration/GPU/CUDA tests: outlined into a
// gpu.module by upstream's pipeline, lowered by ptxcc (the top-level run and
// the run nested under gpu.module agree; host code is untouched), and
// serialized by upstream's gpu-module-to-binary.
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline -o %t.top.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.nvvm.mlir > %t.host.in
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.top.mlir | diff %t.host.in -
// RUN: cat %t.top.mlir | %gpu-binary-ptx | FileCheck %s

func.func @main() {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  %c = memref.alloc() : memref<64xf32>
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %x = memref.load %a[%tx] : memref<64xf32>
    %y = memref.load %b[%tx] : memref<64xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %c[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}

// The memref pointers are global memory: ptxcc's memory-space-opt reads
// and writes them as such.
// CHECK-LABEL: // gpu.binary @main_kernel
// CHECK-LABEL: .entry main_kernel(
// CHECK-NOT: .local
// CHECK: ld.global.b32
// CHECK: ld.global.b32
// CHECK: st.global.b32
// CHECK: ret;
