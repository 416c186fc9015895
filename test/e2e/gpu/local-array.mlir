// A private array of an MLIR front end (memref.alloca in gpu.launch) filled
// and summed by two scf.for loops with constant bounds: upstream's lowering
// makes them top-tested CFG loops over an llvm.alloca. Their bodies are too
// large for LLVM's own full unrolling at O3 (gpu-module-to-binary), so the
// array stays in .local without ptxcc; promote-local-arrays unrolls both in
// the gpu.module and the promoted form survives O3 (issue 31), with
// llvm-opt-after given explicitly too.
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline | %gpu-binary-ptx | FileCheck %s
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline=llvm-opt-after=true | %gpu-binary-ptx | FileCheck %s
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline{promote-remarks=true}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: cat %t.nvvm.mlir | %gpu-binary-ptx | FileCheck %s --check-prefix=UPSTREAM

// CHECK-LABEL: .entry main_kernel(
// CHECK-NOT: .local
// CHECK: ret;
// REMARK: remark: promoted to registers: 32 bytes; loops unrolled with 8, 8 iterations
// UPSTREAM-LABEL: .entry main_kernel(
// UPSTREAM: .local .align 4 .b8 __local_depot0[32];
func.func @main() {
  %in = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<64xf32>
  %one = arith.constant 1 : index
  %eight = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %eight, %sy = %one, %sz = %one) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %acc = memref.alloca() : memref<8xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %i = arith.addi %tx, %k : index
      %x = memref.load %in[%i] : memref<64xf32>
      %p0 = arith.mulf %x, %x : f32
      %s0 = arith.addf %p0, %x : f32
      %p1 = arith.mulf %s0, %x : f32
      %s1 = arith.addf %p1, %x : f32
      %p2 = arith.mulf %s1, %x : f32
      %s2 = arith.addf %p2, %x : f32
      %p3 = arith.mulf %s2, %x : f32
      %s3 = arith.addf %p3, %x : f32
      %p4 = arith.mulf %s3, %x : f32
      %s4 = arith.addf %p4, %x : f32
      %p5 = arith.mulf %s4, %x : f32
      %s5 = arith.addf %p5, %x : f32
      %p6 = arith.mulf %s5, %x : f32
      %s6 = arith.addf %p6, %x : f32
      %p7 = arith.mulf %s6, %x : f32
      %s7 = arith.addf %p7, %x : f32
      %p8 = arith.mulf %s7, %x : f32
      %s8 = arith.addf %p8, %x : f32
      %p9 = arith.mulf %s8, %x : f32
      %s9 = arith.addf %p9, %x : f32
      %p10 = arith.mulf %s9, %x : f32
      %s10 = arith.addf %p10, %x : f32
      %p11 = arith.mulf %s10, %x : f32
      %s11 = arith.addf %p11, %x : f32
      %p12 = arith.mulf %s11, %x : f32
      %s12 = arith.addf %p12, %x : f32
      %p13 = arith.mulf %s12, %x : f32
      %s13 = arith.addf %p13, %x : f32
      %p14 = arith.mulf %s13, %x : f32
      %s14 = arith.addf %p14, %x : f32
      %p15 = arith.mulf %s14, %x : f32
      %s15 = arith.addf %p15, %x : f32
      %p16 = arith.mulf %s15, %x : f32
      %s16 = arith.addf %p16, %x : f32
      %p17 = arith.mulf %s16, %x : f32
      %s17 = arith.addf %p17, %x : f32
      %p18 = arith.mulf %s17, %x : f32
      %s18 = arith.addf %p18, %x : f32
      %p19 = arith.mulf %s18, %x : f32
      %s19 = arith.addf %p19, %x : f32
      %p20 = arith.mulf %s19, %x : f32
      %s20 = arith.addf %p20, %x : f32
      %p21 = arith.mulf %s20, %x : f32
      %s21 = arith.addf %p21, %x : f32
      %p22 = arith.mulf %s21, %x : f32
      %s22 = arith.addf %p22, %x : f32
      %p23 = arith.mulf %s22, %x : f32
      %s23 = arith.addf %p23, %x : f32
      %q = arith.divf %s23, %x : f32
      memref.store %q, %acc[%k] : memref<8xf32>
    }
    %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %zero) -> f32 {
      %v = memref.load %acc[%k] : memref<8xf32>
      %t = arith.addf %s, %v : f32
      scf.yield %t : f32
    }
    memref.store %sum, %out[%tx] : memref<64xf32>
    gpu.terminator
  }
  return
}
