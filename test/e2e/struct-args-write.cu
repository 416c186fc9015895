// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// lower-struct-args on kernels that write their byval struct: exactly one
// local copy, made with 16-byte ld.param.v4/st.local.v4 pairs when the struct
// is 16-byte aligned, and every access after it goes to the copy. A second,
// read-only struct of the same kernel is still read from param space.
// (promote-local=false: the copy as lower-struct-args makes it.)
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline=promote-local=false | %to-llvmir | %llc-sm90 | FileCheck %s
// With promote-local-arrays (the default), the copy's two dynamic accesses
// become selects over its eight floats and the copy lives in registers: no
// local memory at all (nvcc's scatter has none either; its mixed keeps 32
// bytes).
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PROMOTED

struct alignas(16) M {
  float v[8];
};

// CHECK-LABEL: .entry _Z7scatterPf1M(
// CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[32];
// CHECK-NOT: .local .align
// CHECK: add.u64 %rd[[COPY:[0-9]+]], %SPL, 0;
// CHECK-NEXT: ld.param.v4.b32 {[[A:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [_Z7scatterPf1M_param_1];
// CHECK-NEXT: ld.param.v4.b32 {[[B:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [_Z7scatterPf1M_param_1+16];
// CHECK-NEXT: st.local.v4.b32 [%rd[[COPY]]], {[[A]]};
// CHECK-NEXT: st.local.v4.b32 [%rd[[COPY]]+16], {[[B]]};
// CHECK-NOT: _Z7scatterPf1M_param_1
// CHECK-NOT: st.local.v4
// CHECK: add.s64 %rd[[W:[0-9]+]], %rd[[COPY]], %rd{{[0-9]+}};
// CHECK-NEXT: st.local.b32 [%rd[[W]]], 0;
// CHECK: add.s64 %rd[[R:[0-9]+]], %rd[[COPY]], %rd{{[0-9]+}};
// CHECK-NEXT: ld.local.b32 %r{{[0-9]+}}, [%rd[[R]]];
// CHECK-NOT: _Z7scatterPf1M_param_1
// CHECK: ret;
// PROMOTED-LABEL: .entry _Z7scatterPf1M(
// PROMOTED-NOT: .local
// PROMOTED-COUNT-8: ld.param.b32 %r{{[0-9]+}}, [_Z7scatterPf1M_param_1{{(\+[0-9]+)?}}];
// PROMOTED-COUNT-8: selp.f32 %r{{[0-9]+}}, 0f00000000, %r{{[0-9]+}}, %p{{[0-9]+}};
// PROMOTED-COUNT-7: selp.f32
// PROMOTED-NOT: .local
// PROMOTED: ret;
__attribute__((global)) void scatter(float *out, M m) {
  unsigned i = __nvvm_read_ptx_sreg_tid_x();
  m.v[i & 7] = 0.0f;
  out[i] = m.v[(i + 1) & 7];
}

struct P {
  int n;
  float scale;
};

// p is only read (ld.param at +0 and +4), m is written (one 32-byte copy).
// CHECK-LABEL: .entry _Z5mixedPf1P1M(
// CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[32];
// CHECK-NOT: .local .align
// CHECK: add.u64 %rd[[COPY:[0-9]+]], %SPL, 0;
// CHECK-NEXT: ld.param.v4.b32 {[[A:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [_Z5mixedPf1P1M_param_2];
// CHECK-NEXT: ld.param.v4.b32 {[[B:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [_Z5mixedPf1P1M_param_2+16];
// CHECK-NEXT: st.local.v4.b32 [%rd[[COPY]]], {[[A]]};
// CHECK-NEXT: st.local.v4.b32 [%rd[[COPY]]+16], {[[B]]};
// CHECK-NOT: _Z5mixedPf1P1M_param_2
// CHECK-NOT: st.local.v4
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z5mixedPf1P1M_param_1+4];
// CHECK: ld.local.b32 %r{{[0-9]+}}, [%rd[[E:[0-9]+]]];
// CHECK: st.local.b32 [%rd[[E]]], %r{{[0-9]+}};
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z5mixedPf1P1M_param_1];
// CHECK: ld.local.b32
// CHECK-NOT: _Z5mixedPf1P1M_param_2
// CHECK: ret;
// PROMOTED-LABEL: .entry _Z5mixedPf1P1M(
// PROMOTED-NOT: .local
// PROMOTED: selp.f32
// PROMOTED-NOT: .local
// PROMOTED: ret;
__attribute__((global)) void mixed(float *out, P p, M m) {
  unsigned i = __nvvm_read_ptx_sreg_tid_x();
  m.v[i & 7] *= p.scale;
  out[i] = m.v[p.n & 7];
}
