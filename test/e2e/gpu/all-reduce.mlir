// gpu.all_reduce (upstream's all-reduce-*.mlir tests): convert-gpu-to-nvvm
// expands it into warp shuffles and a workgroup buffer, a global in shared
// memory inside the gpu.module; ptxcc leaves both correct.
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline -o %t.top.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.nvvm.mlir > %t.host.in
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.top.mlir | diff %t.host.in -
// RUN: cat %t.top.mlir | %gpu-binary-ptx | FileCheck %s

func.func @main() {
  %data = memref.alloc() : memref<32xi32>
  %sum = memref.alloc() : memref<1xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%tx] : memref<32xi32>
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    memref.store %r, %sum[%c0] : memref<1xi32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: // gpu.binary @main_kernel
// CHECK-LABEL: .entry main_kernel(
// CHECK-NOT: .local
// CHECK: .shared .align 4 .u32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK: ret;
