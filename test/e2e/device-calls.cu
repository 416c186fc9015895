// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// lower-struct-args on device functions whose calls are all visible (static,
// so internal linkage; address never taken): a small aggregate parameter is
// flattened into one .param per leaf only where that takes no more
// st.param/ld.param than llc's .v2/.v4 parts of it; the Vec3s here cross as
// their value instead, one .param .align 16 .b8 [12] each (a byval one the
// callee only reads field by field is loaded whole by the caller). Larger
// byval ones stay .param arrays
// aligned to 16, a large result that every caller stores becomes a leading
// pointer (return-slot elision), and one a caller only partly reads stays in
// param space. Nothing in this file needs local memory: no .local, ld.local,
// st.local or cvta.local anywhere in the PTX (--implicit-check-not).
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --implicit-check-not=.local
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=DECL
// RUN: not grep -E 'ld\.local|st\.local|cvta\.local|__local_depot' %t.ptx
// The same without the attributes clang's optimiser infers and MLIR front
// ends never emit.
// RUN: sed -E -e 's/ (readonly|writeonly|captures\(none\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: not grep -E 'readonly|captures|memory\(|initializes' %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx --implicit-check-not=.local
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=DECL
// RUN: not grep -E 'ld\.local|st\.local|cvta\.local|__local_depot' %t.stripped.ptx
// seed 000's rule (flatten-always): every Vec3 flattened into three .b32,
// still without local memory.
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline=flatten-always=true | %to-llvmir | %llc-sm90 -o %t.always.ptx
// RUN: FileCheck %s --input-file=%t.always.ptx --check-prefix=ALWAYS --implicit-check-not=.local
// RUN: not grep -E 'ld\.local|st\.local|cvta\.local|__local_depot' %t.always.ptx

struct Vec3 { float x, y, z; };
struct Mat4 { float m[16]; };
// seed 001's examples.
struct Matrix4x4 { float m[4][4]; };

#define DEVICE static __attribute__((device)) __attribute__((noinline))
#define GLOBAL __attribute__((global))

// Two Vec3 (12 bytes each, three float leaves): each crosses as its value,
// a .param .align 16 .b8 [12] that llc fills with .v2 + .b32, one st.param
// fewer than three .b32 (flatten-always: six .b32 parameters).
DEVICE float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// A 12-byte result stays returned in param space (under sret-threshold).
DEVICE Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// 64 bytes, over flatten-threshold: stays one byval .param, aligned to 16.
DEVICE float det(Mat4 m) {
  float d = 0.f;
#pragma unroll
  for (int i = 0; i < 4; ++i)
    d += m.m[i] * m.m[4 + ((i + 1) & 3)] * m.m[8 + ((i + 2) & 3)] * m.m[12 + ((i + 3) & 3)];
  return d;
}

// A 64-byte result that every caller stores whole into memory it has: the
// callee writes it there through a leading pointer.
DEVICE Mat4 identity(float d) {
  Mat4 r;
#pragma unroll
  for (int i = 0; i < 16; ++i) r.m[i] = (i % 5 == 0) ? d : 0.f;
  return r;
}

// The same body, but one caller reads one element only: the result stays in
// param space for every caller.
DEVICE Mat4 diagonal(float d) {
  Mat4 r;
#pragma unroll
  for (int i = 0; i < 16; ++i) r.m[i] = (i % 5 == 0) ? d : 0.f;
  return r;
}

// seed 001, example 1, reading only: its byval v, read field by field,
// becomes a value parameter (.v2 + .b32, not three .b32), no copy.
DEVICE float length(Vec3 v) { return __builtin_sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }

// seed 001, example 1 as written: it writes its own copy of v and passes v
// on to length, so it keeps its byval .param (aligned to 16) and reads it in
// place; the copy it writes lives in registers.
DEVICE Vec3 normalize(Vec3 v) {
  float len = length(v);
  v.x /= len;
  v.y /= len;
  v.z /= len;
  return v;
}

// seed 001, example 2, reading only: a byval .param read in place.
DEVICE float determinant(Matrix4x4 mat) {
  return mat.m[0][0] * mat.m[1][1] - mat.m[0][1] * mat.m[1][0];
}

// The prototypes llc declares before the first kernel: one 12-byte array,
// aligned to 16, per Vec3.
// DECL-LABEL: .func  (.param .b32 func_retval0) _ZL3dot4Vec3S_
// DECL-NEXT: (
// DECL-NEXT: .param .align 16 .b8 _ZL3dot4Vec3S__param_0[12],
// DECL-NEXT: .param .align 16 .b8 _ZL3dot4Vec3S__param_1[12]
// DECL-NEXT: )
// DECL-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL5cross4Vec3S_
// DECL-NEXT: (
// DECL-NEXT: .param .align 16 .b8 _ZL5cross4Vec3S__param_0[12],
// DECL-NEXT: .param .align 16 .b8 _ZL5cross4Vec3S__param_1[12]
// DECL-NEXT: )
// DECL-LABEL: .func  (.param .b32 func_retval0) _ZL3det4Mat4
// DECL-NEXT: (
// DECL-NEXT: .param .align 16 .b8 _ZL3det4Mat4_param_0[64]
// DECL-NEXT: )

// flatten-always: every Vec3 one .b32 per float, as seed 000 has it, and the
// calls store them one st.param.b32 each.
// ALWAYS-LABEL: .func  (.param .b32 func_retval0) _ZL3dot4Vec3S_
// ALWAYS-NEXT: (
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_0,
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_1,
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_2,
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_3,
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_4,
// ALWAYS-NEXT: .param .b32 _ZL3dot4Vec3S__param_5
// ALWAYS-NEXT: )
// ALWAYS-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL5cross4Vec3S_
// ALWAYS-NEXT: (
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_0,
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_1,
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_2,
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_3,
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_4,
// ALWAYS-NEXT: .param .b32 _ZL5cross4Vec3S__param_5
// ALWAYS-NEXT: )
// ALWAYS-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL9normalize4Vec3
// ALWAYS-NEXT: (
// ALWAYS-NEXT: .param .b32 _ZL9normalize4Vec3_param_0,
// ALWAYS-NEXT: .param .b32 _ZL9normalize4Vec3_param_1,
// ALWAYS-NEXT: .param .b32 _ZL9normalize4Vec3_param_2
// ALWAYS-NEXT: )
// ALWAYS-LABEL: .func  (.param .b32 func_retval0) _ZL6length4Vec3
// ALWAYS-NEXT: (
// ALWAYS-NEXT: .param .b32 _ZL6length4Vec3_param_0,
// ALWAYS-NEXT: .param .b32 _ZL6length4Vec3_param_1,
// ALWAYS-NEXT: .param .b32 _ZL6length4Vec3_param_2
// ALWAYS-NEXT: )
// ALWAYS-LABEL: .entry _Z1k4Vec3S_4Mat4Pf(
// ALWAYS-COUNT-6: st.param.b32 [param{{[0-5]}}], %r{{[0-9]+}};
// ALWAYS-NEXT: call.uni (retval0), _ZL5cross4Vec3S_, (param0, param1, param2, param3, param4, param5);
// ALWAYS: call.uni (retval0), _ZL3dot4Vec3S_, (param0, param1, param2, param3, param4, param5);
// ALWAYS-LABEL: .entry _Z5seed14Vec39Matrix4x4Pf(
// ALWAYS-COUNT-3: st.param.b32 [param{{[0-2]}}], %r{{[0-9]+}};
// ALWAYS-NEXT: call.uni (retval0), _ZL9normalize4Vec3, (param0, param1, param2);
// ALWAYS: call.uni (retval0), _ZL6length4Vec3, (param0, param1, param2);

// a and b are read from the kernel's parameters with ld.param and go to the
// calls' 12-byte parameters with one st.param.v2.b32 (x, y) and one
// st.param.b32 (z) each; the 12-byte result of cross goes straight from
// retval0 to dot's second parameter the same way.
// CHECK-LABEL: .entry _Z1k4Vec3S_4Mat4Pf(
// CHECK-DAG: ld.param.b32 %r[[AX:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_0];
// CHECK-DAG: ld.param.b32 %r[[AY:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_0+4];
// CHECK-DAG: ld.param.b32 %r[[AZ:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_0+8];
// CHECK-DAG: ld.param.b32 %r[[BX:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_1];
// CHECK-DAG: ld.param.b32 %r[[BY:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_1+4];
// CHECK-DAG: ld.param.b32 %r[[BZ:[0-9]+]], [_Z1k4Vec3S_4Mat4Pf_param_1+8];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .align 16 .b8 retval0[12];
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[AX]], %r[[AY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[AZ]];
// CHECK-DAG: st.param.v2.b32 [param1], {%r[[BX]], %r[[BY]]};
// CHECK-DAG: st.param.b32 [param1+8], %r[[BZ]];
// CHECK: call.uni (retval0), _ZL5cross4Vec3S_, (param0, param1);
// CHECK-DAG: ld.param.b32 %r[[CZ:[0-9]+]], [retval0+8];
// CHECK-DAG: ld.param.v2.b32 {%r[[CX:[0-9]+]], %r[[CY:[0-9]+]]}, [retval0];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .b32 retval0;
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[AX]], %r[[AY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[AZ]];
// CHECK-DAG: st.param.v2.b32 [param1], {%r[[CX]], %r[[CY]]};
// CHECK-DAG: st.param.b32 [param1+8], %r[[CZ]];
// CHECK: call.uni (retval0), _ZL3dot4Vec3S_, (param0, param1);
// m goes from the kernel's parameter to det's with ld.param/st.param.
// CHECK: .param .align 16 .b8 param0[64];
// CHECK-NOT: cvta
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z1k4Vec3S_4Mat4Pf_param_2];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z1k4Vec3S_4Mat4Pf_param_2+60];
// CHECK-DAG: st.param.v4.b32 [param0], {{.*}};
// CHECK-DAG: st.param.v4.b32 [param0+48], {{.*}};
// CHECK: call.uni (retval0), _ZL3det4Mat4, (param0);
// CHECK: ret;
GLOBAL void k(Vec3 a, Vec3 b, Mat4 m, float *out) { out[0] = dot(a, cross(a, b)) + det(m); }

// The callees: each Vec3 read with one ld.param.v2.b32 and one ld.param.b32,
// nothing else.
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL3dot4Vec3S_(
// CHECK-NEXT: .param .align 16 .b8 _ZL3dot4Vec3S__param_0[12],
// CHECK-NEXT: .param .align 16 .b8 _ZL3dot4Vec3S__param_1[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL3dot4Vec3S__param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL3dot4Vec3S__param_0+8];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL3dot4Vec3S__param_1];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL3dot4Vec3S__param_1+8];
// CHECK-NOT: ld.param
// CHECK: st.param.b32 [func_retval0], %r{{[0-9]+}};
// CHECK-NEXT: ret;
// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL5cross4Vec3S_(
// CHECK-NEXT: .param .align 16 .b8 _ZL5cross4Vec3S__param_0[12],
// CHECK-NEXT: .param .align 16 .b8 _ZL5cross4Vec3S__param_1[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL5cross4Vec3S__param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL5cross4Vec3S__param_0+8];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL5cross4Vec3S__param_1];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL5cross4Vec3S__param_1+8];
// CHECK-NOT: ld.param
// CHECK: st.param.v2.b32 [func_retval0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NEXT: st.param.b32 [func_retval0+8], %r{{[0-9]+}};
// CHECK-NEXT: ret;
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL3det4Mat4(
// CHECK-NEXT: .param .align 16 .b8 _ZL3det4Mat4_param_0[64]
// CHECK-NOT: cvta
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL3det4Mat4_param_0];
// CHECK-NOT: cvta
// CHECK: ret;

// A kernel forwarding its byval Mat4 to det: copied from the kernel's
// parameter to the call's, no local copy (a cvta.param would be allowed).
// CHECK-LABEL: .entry _Z3fwd4Mat4Pf(
// CHECK: .param .align 16 .b8 param0[64];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z3fwd4Mat4Pf_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z3fwd4Mat4Pf_param_0+60];
// CHECK-DAG: st.param.v4.b32 [param0], {{.*}};
// CHECK-DAG: st.param.v4.b32 [param0+48], {{.*}};
// CHECK: call.uni (retval0), _ZL3det4Mat4, (param0);
// CHECK: ret;
GLOBAL void fwd(Mat4 m, float *out) { out[0] = det(m); }

// *out = identity(d): the kernel passes out itself, identity stores the
// matrix there; no retval0.
// CHECK-LABEL: .entry _Z5identP4Mat4f(
// CHECK: ld.param.b64 %rd[[OUT:[0-9]+]], [_Z5identP4Mat4f_param_0];
// CHECK-NOT: retval0
// CHECK: .param .b64 param0;
// CHECK-NEXT: .param .b32 param1;
// CHECK-NOT: retval0
// CHECK: st.param.b64 [param0], %rd[[OUT]];
// CHECK: call.uni _ZL8identityf, (param0, param1);
// CHECK-NOT: st.global
// CHECK: ret;
GLOBAL void ident(Mat4 *out, float d) { *out = identity(d); }

// identity: a leading .b64 pointer, no func_retval0; 16 stores through it.
// DECL-LABEL: .func _ZL8identityf
// DECL-NEXT: (
// DECL-NEXT: .param .b64 _ZL8identityf_param_0,
// DECL-NEXT: .param .b32 _ZL8identityf_param_1
// DECL-NEXT: )
// CHECK-LABEL: .func _ZL8identityf(
// CHECK-NEXT: .param .b64 _ZL8identityf_param_0,
// CHECK-NEXT: .param .b32 _ZL8identityf_param_1
// CHECK-NEXT: )
// CHECK-NOT: func_retval0
// CHECK: ld.param.b64 %rd[[SLOT:[0-9]+]], [_ZL8identityf_param_0];
// CHECK-NOT: func_retval0
// CHECK-COUNT-16: st.b32 [%rd[[SLOT]]{{(\+[0-9]+)?}}], {{.*}};
// CHECK-NOT: func_retval0
// CHECK: ret;

// diagonal: one caller stores the whole result, one reads m[5] only; the
// result stays .param .align 16 .b8 func_retval0[64] for both.
// DECL-LABEL: .func  (.param .align 16 .b8 func_retval0[64]) _ZL8diagonalf
// DECL-NEXT: (
// DECL-NEXT: .param .b32 _ZL8diagonalf_param_0
// DECL-NEXT: )
// CHECK-LABEL: .entry _Z8diag_allP4Mat4f(
// CHECK: .param .align 16 .b8 retval0[64];
// CHECK: call.uni (retval0), _ZL8diagonalf, (param0);
// CHECK-DAG: ld.param.v4.b32 {{.*}}, [retval0];
// CHECK-DAG: ld.param.v4.b32 {{.*}}, [retval0+48];
// CHECK: st.global.b32 [%rd{{[0-9]+}}+60], %r{{[0-9]+}};
// CHECK: ret;
GLOBAL void diag_all(Mat4 *out, float d) { *out = diagonal(d); }

// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[64]) _ZL8diagonalf(
// CHECK-NEXT: .param .b32 _ZL8diagonalf_param_0
// CHECK: st.param.v4.b32 [func_retval0], {{.*}};
// CHECK: ret;

// CHECK-LABEL: .entry _Z8diag_onePff(
// CHECK: .param .align 16 .b8 retval0[64];
// CHECK: call.uni (retval0), _ZL8diagonalf, (param0);
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r[[M5:[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}}}, [retval0+16];
// CHECK: st.global.b32 [%rd{{[0-9]+}}], %r[[M5]];
// CHECK: ret;
GLOBAL void diag_one(float *out, float d) { out[0] = diagonal(d).m[5]; }

// seed 001's examples: v reaches normalize and length as three floats read
// from the kernel's parameter and stored into a 12-byte .param with .v2 +
// .b32; mat reaches determinant as a 64-byte .param.
// CHECK-LABEL: .entry _Z5seed14Vec39Matrix4x4Pf(
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 retval0[12];
// CHECK-DAG: ld.param.b32 %r[[VX:[0-9]+]], [_Z5seed14Vec39Matrix4x4Pf_param_0];
// CHECK-DAG: ld.param.b32 %r[[VY:[0-9]+]], [_Z5seed14Vec39Matrix4x4Pf_param_0+4];
// CHECK-DAG: ld.param.b32 %r[[VZ:[0-9]+]], [_Z5seed14Vec39Matrix4x4Pf_param_0+8];
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[VX]], %r[[VY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[VZ]];
// CHECK: call.uni (retval0), _ZL9normalize4Vec3, (param0);
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .b32 retval0;
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[VX]], %r[[VY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[VZ]];
// CHECK: call.uni (retval0), _ZL6length4Vec3, (param0);
// CHECK: .param .align 16 .b8 param0[64];
// CHECK: call.uni (retval0), _ZL11determinant9Matrix4x4, (param0);
// CHECK: ret;
GLOBAL void seed1(Vec3 v, Matrix4x4 mat, float *out) {
  Vec3 n = normalize(v);
  out[0] = length(v) + n.x + n.y + n.z;
  out[1] = determinant(mat);
}

// normalize writes its copy of v: its byval .param is read in place with
// ld.param (no copy, no cvta), v goes on to length's 12-byte .param with
// .v2 + .b32, and the three floats are divided in registers.
// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL9normalize4Vec3(
// CHECK-NEXT: .param .align 16 .b8 _ZL9normalize4Vec3_param_0[12]
// CHECK-NEXT: )
// CHECK-NOT: cvta
// CHECK: .param .align 16 .b8 param0[12];
// CHECK: st.param.v2.b32 [param0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NEXT: st.param.b32 [param0+8], %r{{[0-9]+}};
// CHECK-NEXT: call.uni (retval0), _ZL6length4Vec3, (param0);
// CHECK-NOT: cvta
// CHECK-COUNT-3: div.rn.f32
// CHECK: st.param.v2.b32 [func_retval0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-NEXT: st.param.b32 [func_retval0+8], %r{{[0-9]+}};
// CHECK-NEXT: ret;
// length reads its value with .v2 + .b32.
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL6length4Vec3(
// CHECK-NEXT: .param .align 16 .b8 _ZL6length4Vec3_param_0[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL6length4Vec3_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL6length4Vec3_param_0+8];
// CHECK-NOT: ld.param
// CHECK: sqrt.rn.f32
// CHECK: ret;
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL11determinant9Matrix4x4(
// CHECK-NEXT: .param .align 16 .b8 _ZL11determinant9Matrix4x4_param_0[64]
// CHECK-NOT: cvta
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL11determinant9Matrix4x4_param_0];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL11determinant9Matrix4x4_param_0+16];
// CHECK: ret;
