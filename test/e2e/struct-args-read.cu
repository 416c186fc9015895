// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// lower-struct-args on kernels that only read their byval struct: every
// read becomes an ld.param, at a constant offset or through a register, and
// no kernel gets a local copy (--implicit-check-not: no .local, ld.local,
// st.local or cvta.local anywhere) or needs a generic address (no cvta.param).
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 \
// RUN:   | FileCheck %s --implicit-check-not=.local --implicit-check-not=cvta.param

struct S {
  double f; // offset 0
  char b;   // offset 8
  int a[4]; // offset 12
};

// Field reads at their offsets.
// CHECK-LABEL: .entry _Z6fieldsPdPi1S(
// CHECK: .param .align 8 .b8 _Z6fieldsPdPi1S_param_2[32]
// CHECK-DAG: ld.param.b64 %rd{{[0-9]+}}, [_Z6fieldsPdPi1S_param_2];
// CHECK-DAG: ld.param.s8 %r{{[0-9]+}}, [_Z6fieldsPdPi1S_param_2+8];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z6fieldsPdPi1S_param_2+12];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z6fieldsPdPi1S_param_2+24];
// CHECK: ret;
__attribute__((global)) void fields(double *d, int *out, S s) {
  *d = s.f;
  out[0] = s.b;
  out[1] = s.a[0];
  out[2] = s.a[3];
}

// s.a[i]: the parameter's address plus 4 * i, read in param space.
// CHECK-LABEL: .entry _Z7dynamicPi1S(
// CHECK: mov.b64 %rd[[BASE:[0-9]+]], _Z7dynamicPi1S_param_1;
// CHECK: mul.wide.u32 %rd[[OFF:[0-9]+]], %r{{[0-9]+}}, 4;
// CHECK: add.s64 %rd[[ADDR:[0-9]+]], %rd[[BASE]], %rd[[OFF]];
// CHECK: ld.param.b32 %r{{[0-9]+}}, [%rd[[ADDR]]+12];
// CHECK: ret;
__attribute__((global)) void dynamic(int *out, S s) {
  int i = __nvvm_read_ptx_sreg_tid_x() & 3;
  out[i] = s.a[i];
}

// *out = s: the struct goes from param space to global memory directly.
// CHECK-LABEL: .entry _Z9wholesaleP1SS_(
// CHECK: cvta.to.global.u64 %rd[[OUT:[0-9]+]], %rd{{[0-9]+}};
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z9wholesaleP1SS__param_1];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z9wholesaleP1SS__param_1+8];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z9wholesaleP1SS__param_1+16];
// CHECK-DAG: ld.param.{{v2.b32|b64}} {{.*}}, [_Z9wholesaleP1SS__param_1+24];
// CHECK-DAG: st.global.{{v2.b32|b64}} [%rd[[OUT]]], {{.*}};
// CHECK-DAG: st.global.{{v2.b32|b64}} [%rd[[OUT]]+8], {{.*}};
// CHECK-DAG: st.global.{{v2.b32|b64}} [%rd[[OUT]]+16], {{.*}};
// CHECK-DAG: st.global.{{v2.b32|b64}} [%rd[[OUT]]+24], {{.*}};
// CHECK: ret;
__attribute__((global)) void wholesale(S *out, S s) { *out = s; }
