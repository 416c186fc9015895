// An MLIR GPU program that passes small structs (the form MLIR front ends
// give them: !llvm.struct values) to and from a device function, and a
// kernel with a byval struct, lowered by upstream's GPU pipeline, then by
// ptxcc, then serialized by upstream's gpu-module-to-binary (LLVM's NVPTX
// backend, no CUDA needed).
// RUN: %gpu-lower-to-nvvm %s -o %t.nvvm.mlir
// RUN: %ptxcc-opt %t.nvvm.mlir --ptxcc-pipeline -o %t.top.mlir
// The pipeline nested where upstream nests its GPU passes gives the same:
// RUN: %ptxcc-opt %t.nvvm.mlir --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.nested.mlir
// RUN: diff %t.top.mlir %t.nested.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.top.mlir
// Host code (everything outside the gpu.module) is left exactly as it was:
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.nvvm.mlir > %t.host.in
// RUN: sed -e '/^  gpu.module/,/^  }/d' %t.top.mlir | diff %t.host.in -
// RUN: cat %t.top.mlir | %gpu-binary-ptx | FileCheck %s
// Without ptxcc, for comparison:
// RUN: cat %t.nvvm.mlir | %gpu-binary-ptx | FileCheck %s --check-prefix=UPSTREAM

!V = !llvm.struct<(f32, f32, f32)>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A private device function: every call is in the gpu.module, so its
    // struct parameter and result are flattened into scalars.
    func.func private @scale(%v: !V, %k: f32) -> !V {
      %x = llvm.extractvalue %v[0] : !V
      %y = llvm.extractvalue %v[1] : !V
      %z = llvm.extractvalue %v[2] : !V
      %x2 = arith.mulf %x, %k : f32
      %y2 = arith.mulf %y, %k : f32
      %z2 = arith.mulf %z, %k : f32
      %u = llvm.mlir.undef : !V
      %r0 = llvm.insertvalue %x2, %u[0] : !V
      %r1 = llvm.insertvalue %y2, %r0[1] : !V
      %r2 = llvm.insertvalue %z2, %r1[2] : !V
      return %r2 : !V
    }
    gpu.func @scale_all(%a: memref<16xf32>, %k: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<16xf32>
      %u = llvm.mlir.undef : !V
      %v0 = llvm.insertvalue %x, %u[0] : !V
      %v1 = llvm.insertvalue %x, %v0[1] : !V
      %v2 = llvm.insertvalue %x, %v1[2] : !V
      %r = func.call @scale(%v2, %k) : (!V, f32) -> !V
      %ry = llvm.extractvalue %r[1] : !V
      memref.store %ry, %a[%i] : memref<16xf32>
      gpu.return
    }
    // convert-gpu-to-nvvm drops `llvm.byval` from gpu.func arguments, so a
    // byval kernel is written in the LLVM dialect, as front ends emit it.
    llvm.func @byval_kernel(%s: !llvm.ptr {llvm.byval = !V, llvm.align = 4 : i64}, %out: !llvm.ptr, %i: i64) attributes {gpu.kernel, nvvm.kernel} {
      %p = llvm.getelementptr %s[0, 2] : (!llvm.ptr) -> !llvm.ptr, !V
      %z = llvm.load %p : !llvm.ptr -> f32
      %o = llvm.getelementptr %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.store %z, %o : f32, !llvm.ptr
      llvm.return
    }
  }
  // Host code with what ptxcc would lower in device code (a byval struct
  // written, an alloca): not ptxcc's, left alone.
  llvm.func @host_helper(%s: !llvm.ptr {llvm.byval = !V}) -> f32 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %slot = llvm.alloca %one x f32 : (i32) -> !llvm.ptr
    %f = llvm.mlir.constant(1.0 : f32) : f32
    llvm.store %f, %s : f32, !llvm.ptr
    llvm.store %f, %slot : f32, !llvm.ptr
    %r = llvm.load %slot : !llvm.ptr -> f32
    llvm.return %r : f32
  }
  func.func @main(%a: memref<16xf32>, %s: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %k = arith.constant 2.0 : f32
    gpu.launch_func @kernels::@scale_all blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : memref<16xf32>, %k : f32)
    return
  }
}

// The host code is left as it was:
// IR: module attributes {gpu.container_module} {
// IR: gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] attributes {ptxcc.opt_byval = true}
// IR-LABEL: llvm.func @scale(
// IR-SAME: %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32) -> !llvm.struct<(f32, f32, f32)>
// IR-LABEL: llvm.func @byval_kernel(
// IR-LABEL: llvm.func @host_helper(
// IR-SAME: llvm.byval
// IR-NOT: ptxcc
// IR-NOT: addrspacecast
// IR: llvm.return
// IR-LABEL: llvm.func @main(
// IR-NOT: ptxcc
// IR: gpu.launch_func @kernels::@scale_all

// CHECK-LABEL: // gpu.binary @kernels
// CHECK: .target sm_90
// CHECK-LABEL: .func (.param .align 4 .b8 func_retval0[12]) scale(
// CHECK-NEXT: .param .b32 scale_param_0,
// CHECK-NEXT: .param .b32 scale_param_1,
// CHECK-NEXT: .param .b32 scale_param_2,
// CHECK-NEXT: .param .b32 scale_param_3
// CHECK-LABEL: .entry byval_kernel(
// CHECK-NOT: .local
// CHECK: ld.param.b32 {{.*}}[byval_kernel_param_0+8]
// CHECK: ret;

// UPSTREAM-LABEL: .func (.param .align 4 .b8 func_retval0[12]) scale(
// UPSTREAM-NEXT: .param .align 4 .b8 scale_param_0[12],
