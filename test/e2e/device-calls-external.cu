// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// CUDA as people write it: device functions that are not `static` are
// externally visible (`define dso_local`). ptxcc gives the module's calls an
// internal clone with the lowered ABI (Vec3 parameters and results as SSA
// values: one .param .align 16 .b8 [12] each, llc's .v2 + .b32, one st.param
// fewer than three flattened .b32), and the public symbol keeps its ABI as a
// wrapper that loads each Vec3 whole from its byval pointer and calls the
// clone, for other modules and for its address (marked
// nvptx-libcall-callee when the address is taken). The kernel needs no local
// memory, with and without the attributes clang's optimiser infers (llc
// alone keeps 12 and 100 bytes). With whole-program the functions become
// internal, and only the address-taken one keeps a wrapper (internal too).
// The recursive kernel's stack size is not static: ptxas warns, as it does
// on llc alone's PTX of this file (compare.test assembles both and fails on
// a diagnostic only ptxcc's PTX gets).
// DEFINE: %{llc} = env PTXAS_CHECK_ALLOW="cannot be statically determined" %llc-sm90
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline -o %t.lowered.mlir
// RUN: FileCheck %s --input-file=%t.lowered.mlir --check-prefix=IR
// RUN: %to-llvmir %t.lowered.mlir | %{llc} -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: sed -E -e 's/ (readonly|writeonly|captures\(none\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline | %to-llvmir | %{llc} -o %t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline=whole-program=true | %to-llvmir | %{llc} | FileCheck %s --check-prefix=WHOLE
// The ABI report shows the clone's and the wrapper's prototypes.
// RUN: %ptxcc-opt %t.lowered.mlir --ptxcc-abi-report -o %t.report.mlir 2>&1 | FileCheck %s --check-prefix=REPORT

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define NOINLINE __attribute__((noinline))

struct Vec3 { float x, y, z; };
struct Mat4 { float m[16]; };

DEVICE NOINLINE float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DEVICE NOINLINE Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
DEVICE NOINLINE float det(Mat4 m) { return m.m[0] * m.m[5] - m.m[1] * m.m[4] + m.m[10] * m.m[15]; }

GLOBAL void k(Vec3 a, Vec3 b, Mat4 m, float *out) {
  Vec3 c = cross(a, b);
  out[0] = dot(a, c) + det(m);
}

// dot's address is taken: the wrapper is what the pointer calls.
typedef float (*DotFn)(Vec3, Vec3);
DEVICE NOINLINE DotFn pick(int i) { return i ? dot : nullptr; }
GLOBAL void through_pointer(Vec3 a, Vec3 b, int i, float *out) {
  DotFn f = pick(i);
  out[0] = f ? f(a, b) : 0.0f;
}

// The clone comes before its wrapper: llc declares a function ahead of its
// definition only for callers it has emitted, and never counts a wrapper
// marked nvptx-libcall-callee as one (ptxas: "Unknown symbol").
// IR: llvm.func internal @_Z3dot4Vec3S__ptxcc(%{{.*}}: !llvm.struct<"struct.Vec3", (f32, f32, f32)>, %{{.*}}: !llvm.struct<"struct.Vec3", (f32, f32, f32)>)
// IR-NOT: llvm.load
// IR-COUNT-6: llvm.extractvalue %{{.*}}[{{[0-2]}}] : !llvm.struct<"struct.Vec3", (f32, f32, f32)>
// IR-NOT: llvm.load
// IR: llvm.return
// IR: llvm.func @_Z3dot4Vec3S_(%{{.*}}: !llvm.ptr {{{.*}}llvm.byval = !llvm.struct<"struct.Vec3", (f32, f32, f32)>
// IR-SAME: passthrough = [{{.*}}["nvptx-libcall-callee", "true"]]
// IR-NEXT: %[[A:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<"struct.Vec3", (f32, f32, f32)>
// IR-NEXT: %[[B:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<"struct.Vec3", (f32, f32, f32)>
// IR-NEXT: llvm.call @_Z3dot4Vec3S__ptxcc(%[[A]], %[[B]]) : (!llvm.struct<"struct.Vec3", (f32, f32, f32)>, !llvm.struct<"struct.Vec3", (f32, f32, f32)>) -> {{.*}}f32
// IR: llvm.func internal {{.*}}@_Z5cross4Vec3S__ptxcc(
// IR: llvm.func {{.*}}@_Z5cross4Vec3S_(
// IR-NOT: nvptx-libcall-callee
// IR: llvm.call {{.*}}@_Z5cross4Vec3S__ptxcc(

// The clone gets 12-byte arrays aligned to 16, read with .v2 + .b32; the
// wrapper after it keeps the public .align 4 arrays.
// CHECK-LABEL: .func (.param .b32 func_retval0) _Z3dot4Vec3S__ptxcc(
// CHECK-NEXT: .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_0[12],
// CHECK-NEXT: .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_1[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_Z3dot4Vec3S__ptxcc_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z3dot4Vec3S__ptxcc_param_0+8];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_Z3dot4Vec3S__ptxcc_param_1];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z3dot4Vec3S__ptxcc_param_1+8];
// CHECK: ret;
// CHECK-LABEL: .visible .func (.param .b32 func_retval0) _Z3dot4Vec3S_(
// CHECK-NEXT: .param .align 4 .b8 _Z3dot4Vec3S__param_0[12],
// CHECK-NEXT: .param .align 4 .b8 _Z3dot4Vec3S__param_1[12]
// CHECK-NEXT: )
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK: call.uni (retval0), _Z3dot4Vec3S__ptxcc, (param0, param1);
// The kernel passes its Vec3s to the clones with .v2 + .b32 each.
// CHECK-LABEL: .entry _Z1k4Vec3S_4Mat4Pf(
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .align 16 .b8 retval0[12];
// CHECK-DAG: st.param.v2.b32 [param0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-DAG: st.param.b32 [param0+8], %r{{[0-9]+}};
// CHECK-DAG: st.param.v2.b32 [param1], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK-DAG: st.param.b32 [param1+8], %r{{[0-9]+}};
// CHECK: call.uni (retval0), _Z5cross4Vec3S__ptxcc, (param0, param1);
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .b32 retval0;
// CHECK: call.uni (retval0), _Z3dot4Vec3S__ptxcc, (param0, param1);
// CHECK: ret;

// WHOLE-NOT: _Z5cross4Vec3S__ptxcc
// WHOLE-NOT: .visible .func
// WHOLE-DAG: .func (.param .b32 func_retval0) _Z3dot4Vec3S_(
// WHOLE-DAG: .func (.param .b32 func_retval0) _Z3dot4Vec3S__ptxcc(
// WHOLE-LABEL: .entry _Z1k4Vec3S_4Mat4Pf(
// WHOLE-NOT: .local
// WHOLE: .param .align 16 .b8 param0[12];
// WHOLE-NEXT: .param .align 16 .b8 param1[12];
// WHOLE-NEXT: .param .align 16 .b8 retval0[12];
// WHOLE: call.uni (retval0), _Z5cross4Vec3S_, (param0, param1);
// WHOLE: .param .align 16 .b8 param0[12];
// WHOLE-NEXT: .param .align 16 .b8 param1[12];
// WHOLE-NEXT: .param .b32 retval0;
// WHOLE: call.uni (retval0), _Z3dot4Vec3S__ptxcc, (param0, param1);

// The wrapper keeps its byval prototype and calls the clone with two 12-byte
// arrays aligned to 16; the clone takes each Vec3 with .v2 + .b32.
// REPORT-LABEL: ptxcc-abi-report @_Z3dot4Vec3S__ptxcc: device function
// REPORT-NEXT: .func (.param .b32 func_retval0) _Z3dot4Vec3S__ptxcc(
// REPORT-NEXT: .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_0[12],
// REPORT-NEXT: .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_1[12]
// REPORT-NEXT: )
// REPORT-NEXT: arg
// REPORT-NEXT: 0 %struct.Vec3 {{.*}} .v2.b32 +0, .b32 +8 .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_0[12]
// REPORT-NEXT: 1 %struct.Vec3 {{.*}} .v2.b32 +0, .b32 +8 .param .align 16 .b8 _Z3dot4Vec3S__ptxcc_param_1[12]
// REPORT-LABEL: ptxcc-abi-report @_Z3dot4Vec3S_: device function
// REPORT-NEXT: .visible .func (.param .b32 func_retval0) _Z3dot4Vec3S_(
// REPORT-NEXT: .param .align 4 .b8 _Z3dot4Vec3S__param_0[12],
// REPORT-NEXT: .param .align 4 .b8 _Z3dot4Vec3S__param_1[12]
// REPORT-NEXT: )
// REPORT: call _Z3dot4Vec3S__ptxcc: callseq
// REPORT-NEXT: .param .align 16 .b8 param0[12];
// REPORT-NEXT: .param .align 16 .b8 param1[12];
// REPORT-NEXT: .param .b32 retval0;
// REPORT-NEXT: st.param.v2.b32 [param0], {_, _};
// REPORT-NEXT: st.param.b32 [param0+8], _;
// REPORT-NEXT: st.param.v2.b32 [param1], {_, _};
// REPORT-NEXT: st.param.b32 [param1+8], _;
// REPORT-NEXT: call.uni (retval0), _Z3dot4Vec3S__ptxcc, (param0, param1);

// More of what people write: a function that writes its own copy of the
// struct, called from two kernels, and a recursive one. No kernel needs
// local memory, the public symbols keep clang's prototypes, and the
// recursive clone calls itself (not its wrapper, which would want the
// struct in memory: llc alone builds it in a 12-byte local slot at every
// level).
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=MORE
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=MORE
// MORE-LABEL: .func (.param .b32 func_retval0) _Z4bump4Vec3f_ptxcc(
// MORE-NOT: .local
// MORE: ret;
// MORE-LABEL: .visible .func (.param .b32 func_retval0) _Z4bump4Vec3f(
// MORE-NEXT: .param .align 4 .b8 _Z4bump4Vec3f_param_0[12],
// MORE-NEXT: .param .b32 _Z4bump4Vec3f_param_1
// MORE: call.uni (retval0), _Z4bump4Vec3f_ptxcc, (param0, param1);
// MORE-LABEL: .entry _Z8bump_one4Vec3Pf(
// MORE-NOT: .local
// MORE: call.uni (retval0), _Z4bump4Vec3f_ptxcc, (param0, param1);
// MORE-LABEL: .entry _Z8bump_two4Vec3S_Pf(
// MORE-NOT: .local
// MORE: call.uni (retval0), _Z4bump4Vec3f_ptxcc, (param0, param1);
// MORE-NOT: .local
// MORE: call.uni (retval0), _Z4bump4Vec3f_ptxcc, (param0, param1);
// MORE-LABEL: .func (.param .b32 func_retval0) _Z5depth4Vec3i_ptxcc(
// MORE-NOT: .local
// MORE: call.uni (retval0), _Z5depth4Vec3i_ptxcc, (param0, param1);
// MORE-NOT: .local
// MORE: ret;
// MORE-LABEL: .visible .func (.param .b32 func_retval0) _Z5depth4Vec3i(
// MORE-NEXT: .param .align 4 .b8 _Z5depth4Vec3i_param_0[12],
// MORE-NEXT: .param .b32 _Z5depth4Vec3i_param_1
// MORE-LABEL: .entry _Z7recurse4Vec3iPf(
// MORE-NOT: .local
// MORE: call.uni (retval0), _Z5depth4Vec3i_ptxcc, (param0, param1);
// MORE-NOT: .local
// MORE: ret;
DEVICE NOINLINE float bump(Vec3 v, float d) {
  v.x += d;
  v.y *= d;
  return v.x * v.y + v.z;
}
GLOBAL void bump_one(Vec3 a, float *out) { out[0] = bump(a, 1.0f); }
GLOBAL void bump_two(Vec3 a, Vec3 b, float *out) { out[1] = bump(a, 2.0f) + bump(b, 3.0f); }

DEVICE NOINLINE float depth(Vec3 v, int n) { return n <= 0 ? v.x : depth(Vec3{v.y, v.z, v.x}, n - 1) + 1.0f; }
GLOBAL void recurse(Vec3 a, int n, float *out) { out[2] = depth(a, n); }
