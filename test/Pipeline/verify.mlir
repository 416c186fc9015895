// ptxcc-pipeline runs ptxcc-verify at the end when asked (verify=true), with
// the pipeline's chip, PTX version and opt-byval; without it the pipeline
// does not verify.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --ptxcc-pipeline='verify=true chip=sm_80'
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline='chip=sm_80' | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline='verify=true chip=sm_80 strict-atomics=false' | FileCheck %s

// CHECK-LABEL: llvm.func @vector_fadd(
// CHECK: llvm.atomicrmw fadd
llvm.func @vector_fadd(%p: !llvm.ptr, %v: vector<2xf16>) {
  // expected-error@+1 {{vector atomics not supported on this architecture! 'llvm.atomicrmw fadd' on vector<2xf16> needs sm_90 and PTX 8.1 (atom with .v2/.v4/.v8 vectors); the target is sm_80, PTX 7.0}}
  %0 = llvm.atomicrmw fadd %p, %v monotonic : !llvm.ptr, vector<2xf16>
  llvm.return
}

// -----

// A byval kernel that reads its parameter: lower-struct-args rewrites it
// with opt-byval, and the verifier finds nothing left.
// CHECK-LABEL: llvm.func ptx_kernelcc @reads(
llvm.func ptx_kernelcc @reads(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}
