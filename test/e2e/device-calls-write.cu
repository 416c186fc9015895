// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// lower-struct-args on device functions that write into their own copy of a
// by-value struct (seed 001's Matrix4x4 and Vec3). A copy is legitimately
// needed there, but only in the callee, never in the kernels:
// - a Matrix4x4 (64 bytes) stays a byval .param aligned to 16. Written at
//   a thread-dependent place (poke), the callee takes its address (mov of
//   the .param symbol), which PTX defines as a .local copy that ptxas
//   makes: ld.local/st.local through that address, no __local_depot.
//   Written at constant places (scale), promote-local-arrays copies it into
//   a slot SROA promotes: ld.param of the sixteen floats, two multiplies,
//   st.param into determinant's .param, which takes the Matrix4x4 by value
//   (the same .param .b8[64]), as nvcc does (issue 31);
// - a Vec3 (12 bytes) written at a thread-dependent index is not flattened
//   (a flattened one would need a local slot rebuilt from its leaves): it
//   stays a byval .param aligned to 16, handled as llc alone handles it.
// The kernels read their byval structs with ld.param and need no local
// memory.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s
// The same without the attributes clang's optimiser infers and MLIR front
// ends never emit.
// RUN: sed -E -e 's/ (readonly|writeonly|captures\(none\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: not grep -E 'readonly|captures|memory\(|initializes' %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s

struct Vec3 { float x, y, z; };
struct Matrix4x4 { float m[4][4]; };

#define DEVICE static __attribute__((device)) __attribute__((noinline))
#define GLOBAL __attribute__((global))

// seed 001, example 2.
DEVICE float determinant(Matrix4x4 mat) {
  return mat.m[0][0] * mat.m[1][1] - mat.m[0][1] * mat.m[1][0];
}

// Writes one element of its copy, at a thread-dependent place, then passes
// the copy on.
DEVICE float poke(Matrix4x4 mat, int i, float v) {
  mat.m[i & 3][(i >> 2) & 3] = v;
  return determinant(mat);
}

// Writes two elements at constant places.
DEVICE float scale(Matrix4x4 mat, float s) {
  mat.m[0][0] *= s;
  mat.m[1][1] *= s;
  return determinant(mat);
}

// Writes its Vec3 at a thread-dependent place.
DEVICE float vpoke(Vec3 v, int i) {
  (&v.x)[i] = 0.f;
  return v.x + v.y + v.z;
}

// CHECK-LABEL: .entry _Z6writer9Matrix4x4Pf(
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[64];
// CHECK-NOT: .local
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z6writer9Matrix4x4Pf_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z6writer9Matrix4x4Pf_param_0+60];
// CHECK-DAG: st.param.v4.b32 [param0], {{.*}};
// CHECK-DAG: st.param.v4.b32 [param0+48], {{.*}};
// CHECK: call.uni (retval0), _ZL4poke9Matrix4x4if, (param0, param1, param2);
// CHECK-NOT: .local
// CHECK: ret;
GLOBAL void writer(Matrix4x4 mat, float *out) {
  out[0] = poke(mat, __nvvm_read_ptx_sreg_tid_x(), out[1]);
}

// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL4poke9Matrix4x4if(
// CHECK-NEXT: .param .align 16 .b8 _ZL4poke9Matrix4x4if_param_0[64],
// CHECK-NEXT: .param .b32 _ZL4poke9Matrix4x4if_param_1,
// CHECK-NEXT: .param .b32 _ZL4poke9Matrix4x4if_param_2
// CHECK-NEXT: )
// CHECK-NOT: __local_depot
// CHECK: mov.b64 %rd[[MAT:[0-9]+]], _ZL4poke9Matrix4x4if_param_0;
// CHECK: add.s64 %rd[[ROW:[0-9]+]], %rd[[MAT]], %rd{{[0-9]+}};
// CHECK: add.s64 %rd[[ELT:[0-9]+]], %rd[[ROW]], %rd{{[0-9]+}};
// CHECK: st.local.b32 [%rd[[ELT]]], %r{{[0-9]+}};
// CHECK-DAG: ld.local.b32 %r{{[0-9]+}}, [%rd[[MAT]]];
// CHECK-DAG: ld.local.b32 %r{{[0-9]+}}, [%rd[[MAT]]+60];
// CHECK: .param .align 16 .b8 param0[64];
// CHECK-DAG: st.param.v4.b32 [param0], {{.*}};
// CHECK-DAG: st.param.v4.b32 [param0+48], {{.*}};
// CHECK: call.uni (retval0), _ZL11determinant9Matrix4x4, (param0);
// CHECK: ret;

// CHECK-LABEL: .entry _Z6scaler9Matrix4x4Pf(
// CHECK-NOT: .local
// CHECK: call.uni (retval0), _ZL5scale9Matrix4x4f, (param0, param1);
// CHECK-NOT: .local
// CHECK: ret;
GLOBAL void scaler(Matrix4x4 mat, float *out) { out[0] = scale(mat, out[1]); }

// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL5scale9Matrix4x4f(
// CHECK-NEXT: .param .align 16 .b8 _ZL5scale9Matrix4x4f_param_0[64],
// CHECK-NEXT: .param .b32 _ZL5scale9Matrix4x4f_param_1
// CHECK-NEXT: )
// CHECK-NOT: .local
// CHECK-NOT: _ZL5scale9Matrix4x4f_param_0;
// CHECK-DAG: ld.param.b32 %r[[M0:[0-9]+]], [_ZL5scale9Matrix4x4f_param_0];
// CHECK-DAG: ld.param.v4.b32 {%r{{[0-9]+}}, %r[[M5:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL5scale9Matrix4x4f_param_0+16];
// CHECK-DAG: ld.param.v4.b32 {{{.*}}}, [_ZL5scale9Matrix4x4f_param_0+48];
// CHECK-DAG: mul.f32 %r[[S0:[0-9]+]], %r{{[0-9]+}}, %r[[M0]];
// CHECK-DAG: mul.f32 %r[[S5:[0-9]+]], %r{{[0-9]+}}, %r[[M5]];
// CHECK: .param .align 16 .b8 param0[64];
// CHECK-DAG: st.param.v4.b32 [param0+16], {%r{{[0-9]+}}, %r[[S5]], %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-DAG: st.param.v4.b32 [param0], {%r[[S0]], %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: call.uni (retval0), _ZL11determinant9Matrix4x4, (param0);
// CHECK-NOT: .local
// CHECK: ret;

// vpoke writes its Vec3 at a dynamic index, so it keeps the byval (a
// flattened Vec3 would need a local slot rebuilt from the leaves): the
// kernel's Vec3 goes from param space to the call's .param directly.
// CHECK-LABEL: .entry _Z7vwriter4Vec3Pf(
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z7vwriter4Vec3Pf_param_0+8];
// CHECK-DAG: st.param.b32 [param0+8], %r{{[0-9]+}};
// CHECK: call.uni (retval0), _ZL5vpoke4Vec3i, (param0, param1);
// CHECK-NOT: .local
// CHECK: ret;
GLOBAL void vwriter(Vec3 v, float *out) { out[0] = vpoke(v, __nvvm_read_ptx_sreg_tid_x() % 3); }

// vpoke: the byval .param, aligned to 16; its address is written through
// (ptxas gives it a local copy), as with llc alone.
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL5vpoke4Vec3i(
// CHECK-NEXT: .param .align 16 .b8 _ZL5vpoke4Vec3i_param_0[12],
// CHECK-NEXT: .param .b32 _ZL5vpoke4Vec3i_param_1
// CHECK-NEXT: )
// CHECK-NOT: __local_depot
// CHECK: mov.b64 %rd[[V:[0-9]+]], _ZL5vpoke4Vec3i_param_0;
// CHECK: add.s64 %rd[[ELT:[0-9]+]], %rd[[V]], %rd{{[0-9]+}};
// CHECK: st.local.b32 [%rd[[ELT]]], 0;
// CHECK: ret;

// determinant only reads (the Matrix4x4 by value now: the same .param):
// ld.param, no local memory.
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL11determinant9Matrix4x4(
// CHECK-NEXT: .param .align 16 .b8 _ZL11determinant9Matrix4x4_param_0[64]
// CHECK-NOT: .local
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL11determinant9Matrix4x4_param_0+16];
// CHECK-NOT: .local
// CHECK: ret;
