// gpu.printf (upstream's printf.mlir): convert-gpu-to-nvvm packs the
// arguments into an alloca'd struct passed to vprintf. ptxcc's lower-alloca
// gives the struct a local view; the call still gets its generic address.
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline -o %t.top.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.nvvm.mlir > %t.host.in
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.top.mlir | diff %t.host.in -
// RUN: cat %t.top.mlir | %gpu-binary-ptx | FileCheck %s

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %f = arith.sitofp %t : i32 to f32
    gpu.printf "thread %d: %f\n", %t, %f : i32, f32
    gpu.terminator
  }
  return
}

// CHECK-LABEL: // gpu.binary @main_kernel
// CHECK: .extern .func (.param .b32 func_retval0) vprintf
// CHECK-LABEL: .entry main_kernel(
// CHECK: .local .align 8 .b8 __local_depot0[16];
// CHECK: cvta.local.u64
// CHECK: st.local.b32
// CHECK: st.local.b64
// CHECK: call.uni (retval0), vprintf,
