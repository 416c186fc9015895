// A kernel that passes its byval struct twice to a static device function.
// From clang -O0 IR, ptxcc used to raise the callee's byval parameters to
// align 16 (llc's rule for local functions) while the call site kept its
// `byval ... align 8`: the IR disagreed with itself, and the host build of
// it (x86 lays out the two byval copies by the call site's alignment)
// computed a different result. The differential test (diffexec.test) runs
// this file at -O0 and -O2; here the call site and the callee must agree.
// RUN: %clang-cuda -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | FileCheck %s
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 > %t.ptx

struct T {
  double d;
  int i[3];
};

static __attribute__((device, noinline)) double twice(T a, T b) { return a.d * b.i[2] + b.d - a.i[0]; }

// CHECK-LABEL: define {{.*}} @_Z6kernelPd1T(
// CHECK: call {{.*}} @_ZL5twice1TS_(ptr {{.*}}byval(%struct.T) align 8 {{.*}}, ptr {{.*}}byval(%struct.T) align 8
// CHECK-LABEL: define internal {{.*}} @_ZL5twice1TS_(
// CHECK-SAME: ptr {{.*}}byval(%struct.T) align 8 {{.*}}, ptr {{.*}}byval(%struct.T) align 8
__attribute__((global)) void kernel(double *out, T t) { out[__nvvm_read_ptx_sreg_tid_x()] = twice(t, t); }
