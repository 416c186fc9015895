// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// The whole pipeline (lower-struct-args -> lower-alloca -> memory-space-opt
// -> convert-ptxcc-to-llvm) on kernels with byval structs and on device
// functions taking and returning structs. Per function:
// - kernels read their byval structs with ld.param, at constant offsets or
//   through the parameter's address, and pointers read out of them are
//   global;
// - no local memory (no __local_depot, %SP/%SPL, .local, ld/st.local),
//   except where the source really writes a struct that must stay in
//   memory: field_written (the kernel writes its struct, then its address
//   escapes: one 32-byte copy) and poke (the callee writes its own byval
//   copy: ptxas's local copy of a .param whose address is taken, no
//   __local_depot).
//
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=NOLOCAL
// The same without the attributes clang's optimiser infers and MLIR front
// ends never emit (readonly, captures, memory, ...): ptxcc's PTX passes the
// same checks (it is in fact identical).
// RUN: sed -E -e 's/ (readonly|writeonly|readnone|captures\([^)]*\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: not grep -E 'readonly|writeonly|readnone|captures|memory\(|initializes' %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=NOLOCAL
//
// llc alone, for comparison, on the IR with attributes (LLC) and without
// (LLCSTRIP). Only the kernels where the two differ from ptxcc, or where
// they are equal and that is worth saying, have LLC/LLCSTRIP lines.
// RUN: %llc-sm90 %t.ll -o - | FileCheck %s --check-prefix=LLC
// RUN: %llc-sm90 %t.stripped.ll -o - | FileCheck %s --check-prefix=LLCSTRIP
//
// NOLOCAL has one label per function (kernel or device function) in PTX
// order, so each NOLOCAL-NOT covers exactly one function.

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define NOINLINE __attribute__((noinline))

static DEVICE unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }

struct Params {
  float *data; // offset 0
  int n;       // offset 8
  float scale; // offset 12
  int idx[4];  // offset 16
};
struct Vec3 { float x, y, z; };
struct Big { float v[16]; };

// Read only: every field from param space, idx[i & 3] through the
// parameter's address; data is global. No copy, no cvta.param.
// CHECK-LABEL: .entry _Z9read_only6ParamsPf(
// CHECK-NOT: cvta.param
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z9read_only6ParamsPf_param_0+8];
// CHECK: mov.b64 %rd[[P:[0-9]+]], _Z9read_only6ParamsPf_param_0;
// CHECK-DAG: ld.param.b64 %rd[[DATA:[0-9]+]], [%rd[[P]]];
// CHECK-DAG: cvta.to.global.u64 %rd[[G:[0-9]+]], %rd[[DATA]];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [%rd[[P]]+12];
// CHECK-DAG: add.s64 %rd[[IDX:[0-9]+]], %rd[[P]], %rd{{[0-9]+}};
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [%rd[[IDX]]+16];
// CHECK-DAG: add.s64 %rd[[A:[0-9]+]], %rd[[G]], %rd{{[0-9]+}};
// CHECK-DAG: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]];
// CHECK-NOT: cvta.param
// CHECK: st.global.b32
// CHECK-NOT: cvta.param
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z9read_only6ParamsPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void read_only(Params p, float *out) {
  unsigned i = tid();
  if (i < p.n) out[i] = p.data[i] * p.scale + p.idx[i & 3];
}

// A device function that only reads through its pointer (external: its
// pointer stays generic, it may be a param-space or a local address).
// CHECK-LABEL: .func  (.param .b32 func_retval0) _Z10sum_paramsPK6Params(
// CHECK: ld.param.b64 %rd[[P:[0-9]+]], [_Z10sum_paramsPK6Params_param_0];
// CHECK: ld.b64 %rd{{[0-9]+}}, [%rd[[P]]];
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .b32 func_retval0) _Z10sum_paramsPK6Params(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
NOINLINE DEVICE float sum_params(const Params *p) {
  float s = 0.f;
  for (int k = 0; k < 4; ++k) s += p->data[p->idx[k]];
  return s * p->scale;
}

// The struct's address escapes to sum_params, which only reads: the
// parameter's generic address (cvta.param), no copy.
// CHECK-LABEL: .entry _Z13escape_reader6ParamsPf(
// CHECK: mov.b64 %rd[[P:[0-9]+]], _Z13escape_reader6ParamsPf_param_0;
// CHECK: cvta.param.u64 %rd[[G:[0-9]+]], %rd[[P]];
// CHECK: st.param.b64 [param0], %rd[[G]];
// CHECK-NEXT: call.uni (retval0), _Z10sum_paramsPK6Params, (param0);
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z13escape_reader6ParamsPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// llc alone does the same with clang's attributes (readonly,
// captures(none)) and copies the struct to local memory without them.
// LLC-LABEL: .entry _Z13escape_reader6ParamsPf(
// LLC-NOT: .local
// LLC: cvta.param.u64
// LLC-NOT: .local
// LLC: ret;
// LLCSTRIP-LABEL: .entry _Z13escape_reader6ParamsPf(
// LLCSTRIP: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// LLCSTRIP-COUNT-4: st.local.b64
// LLCSTRIP: call.uni (retval0), _Z10sum_paramsPK6Params, (param0);
GLOBAL void escape_reader(Params p, float *out) { out[tid()] = sum_params(&p); }

// One field written at a thread-dependent place, then the address escapes:
// a copy is needed, and there is exactly one (32 bytes, made with 8-byte
// ld.param/st.local pairs), written once more at idx[i & 3], and the call
// gets its generic address. The parameter is not read after the copy.
// CHECK-LABEL: .entry _Z13field_written6ParamsPfi(
// CHECK: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// CHECK-NOT: .local .align
// CHECK: cvta.local.u64 %SP, %SPL;
// CHECK-DAG: add.u64 %rd[[GEN:[0-9]+]], %SP, 0;
// CHECK-DAG: add.u64 %rd[[LOC:[0-9]+]], %SPL, 0;
// CHECK-DAG: ld.param.b64 %rd[[A:[0-9]+]], [_Z13field_written6ParamsPfi_param_0];
// CHECK-DAG: ld.param.b64 %rd[[B:[0-9]+]], [_Z13field_written6ParamsPfi_param_0+8];
// CHECK-DAG: ld.param.b64 %rd[[C:[0-9]+]], [_Z13field_written6ParamsPfi_param_0+16];
// CHECK-DAG: ld.param.b64 %rd[[D:[0-9]+]], [_Z13field_written6ParamsPfi_param_0+24];
// CHECK-DAG: st.local.b64 [%rd[[LOC]]], %rd[[A]];
// CHECK-DAG: st.local.b64 [%rd[[LOC]]+8], %rd[[B]];
// CHECK-DAG: st.local.b64 [%rd[[LOC]]+16], %rd[[C]];
// CHECK-DAG: st.local.b64 [%rd[[LOC]]+24], %rd[[D]];
// CHECK: add.s64 %rd[[W:[0-9]+]], %rd[[LOC]], %rd{{[0-9]+}};
// CHECK-NEXT: st.local.b32 [%rd[[W]]+16], %r{{[0-9]+}};
// CHECK-NOT: _Z13field_written6ParamsPfi_param_0
// CHECK: st.param.b64 [param0], %rd[[GEN]];
// CHECK-NEXT: call.uni (retval0), _Z10sum_paramsPK6Params, (param0);
// CHECK-NOT: .local
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z13field_written6ParamsPfi(
// NOLOCAL: __local_depot
// llc alone makes the same copy (with ld.param.b64/st.local.b64).
// LLC-LABEL: .entry _Z13field_written6ParamsPfi(
// LLC: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// LLC-COUNT-4: st.local.b64
GLOBAL void field_written(Params p, float *out, int k) {
  p.idx[tid() & 3] = k;
  out[tid()] = sum_params(&p);
}

// A field written at a constant place and read back directly: clang keeps
// the new value in a register (the IR never stores to the struct), so no
// copy.
// CHECK-LABEL: .entry _Z17field_written_reg6ParamsPf(
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z17field_written_reg6ParamsPf_param_0+8];
// CHECK: mov.b64 %rd[[P:[0-9]+]], _Z17field_written_reg6ParamsPf_param_0;
// CHECK: ld.param.b32 %r[[S:[0-9]+]], [%rd[[P]]+12];
// CHECK-NEXT: add.f32 %r{{[0-9]+}}, %r[[S]], %r[[S]];
// CHECK: ld.global.b32
// CHECK: st.global.b32
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z17field_written_reg6ParamsPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void field_written_reg(Params p, float *out) {
  p.scale *= 2.0f;
  unsigned i = tid();
  if (i < p.n) out[i] = p.data[i] * p.scale;
}

// Device functions with Vec3 parameters and a Vec3 result (static, all
// calls visible): each Vec3 parameter crosses as its value, one
// .param .align 16 .b8 [12] filled with st.param.v2.b32 + st.param.b32 (one
// st.param fewer than three flattened .b32); the 12-byte result comes back
// in param space and goes straight to vdot's first parameter.
static NOINLINE DEVICE Vec3 vadd(Vec3 a, Vec3 b) { return Vec3{a.x + b.x, a.y + b.y, a.z + b.z}; }
static NOINLINE DEVICE float vdot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// CHECK-LABEL: .entry _Z10vec_kernel4Vec3S_Pf(
// CHECK-DAG: ld.param.b32 %r[[AX:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_0];
// CHECK-DAG: ld.param.b32 %r[[AY:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_0+4];
// CHECK-DAG: ld.param.b32 %r[[AZ:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_0+8];
// CHECK-DAG: ld.param.b32 %r[[BX:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_1];
// CHECK-DAG: ld.param.b32 %r[[BY:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_1+4];
// CHECK-DAG: ld.param.b32 %r[[BZ:[0-9]+]], [_Z10vec_kernel4Vec3S_Pf_param_1+8];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .align 16 .b8 retval0[12];
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[AX]], %r[[AY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[AZ]];
// CHECK-DAG: st.param.v2.b32 [param1], {%r[[BX]], %r[[BY]]};
// CHECK-DAG: st.param.b32 [param1+8], %r[[BZ]];
// CHECK: call.uni (retval0), _ZL4vadd4Vec3S_, (param0, param1);
// CHECK-DAG: ld.param.b32 %r[[CZ:[0-9]+]], [retval0+8];
// CHECK-DAG: ld.param.v2.b32 {%r[[CX:[0-9]+]], %r[[CY:[0-9]+]]}, [retval0];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .b32 retval0;
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[CX]], %r[[CY]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[CZ]];
// CHECK-DAG: st.param.v2.b32 [param1], {%r[[AX]], %r[[AY]]};
// CHECK-DAG: st.param.b32 [param1+8], %r[[AZ]];
// CHECK: call.uni (retval0), _ZL4vdot4Vec3S_, (param0, param1);
// CHECK: st.global.b32
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z10vec_kernel4Vec3S_Pf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// llc alone (with or without attributes) keeps vadd's result in a 12-byte
// local temporary (clang's alloca for vdot's byval argument): 3 st.local.
// LLC-LABEL: .entry _Z10vec_kernel4Vec3S_Pf(
// LLC: .local .align 4 .b8 __local_depot{{[0-9]+}}[12];
// LLC-COUNT-3: st.local.b32
// LLCSTRIP-LABEL: .entry _Z10vec_kernel4Vec3S_Pf(
// LLCSTRIP: .local .align 4 .b8 __local_depot{{[0-9]+}}[12];
GLOBAL void vec_kernel(Vec3 a, Vec3 b, float *out) {
  Vec3 c = vadd(a, b);
  out[tid()] = vdot(c, a);
}

// The callees read each Vec3 with one ld.param.v2.b32 and one ld.param.b32.
// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL4vadd4Vec3S_(
// CHECK-NEXT: .param .align 16 .b8 _ZL4vadd4Vec3S__param_0[12],
// CHECK-NEXT: .param .align 16 .b8 _ZL4vadd4Vec3S__param_1[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL4vadd4Vec3S__param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL4vadd4Vec3S__param_0+8];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL4vadd4Vec3S__param_1];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL4vadd4Vec3S__param_1+8];
// CHECK-NOT: ld.param
// CHECK: st.param.v2.b32 [func_retval0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: st.param.b32 [func_retval0+8], %r{{[0-9]+}};
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .align 16 .b8 func_retval0[12]) _ZL4vadd4Vec3S_(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL4vdot4Vec3S_(
// CHECK-NEXT: .param .align 16 .b8 _ZL4vdot4Vec3S__param_0[12],
// CHECK-NEXT: .param .align 16 .b8 _ZL4vdot4Vec3S__param_1[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL4vdot4Vec3S__param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL4vdot4Vec3S__param_0+8];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL4vdot4Vec3S__param_1];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_ZL4vdot4Vec3S__param_1+8];
// CHECK-NOT: ld.param
// CHECK: st.param.b32 [func_retval0], %r{{[0-9]+}};
// CHECK-NEXT: ret;
// NOLOCAL-LABEL: .func  (.param .b32 func_retval0) _ZL4vdot4Vec3S_(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}

// A 64-byte struct in and out of a static device function: too big to
// flatten, it goes by byval .param (aligned to 16) from the kernel's
// parameter, and the result comes back in retval0 and goes to global memory.
static NOINLINE DEVICE Big bscale(Big b, float s) {
  Big r;
#pragma unroll
  for (int i = 0; i < 16; ++i) r.v[i] = b.v[i] * s;
  return r;
}
// CHECK-LABEL: .entry _Z10big_kernel3BigPS_f(
// CHECK: .param .align 16 .b8 param0[64];
// CHECK: .param .align 16 .b8 retval0[64];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z10big_kernel3BigPS_f_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z10big_kernel3BigPS_f_param_0+60];
// CHECK-DAG: st.param.v4.b32 [param0], {{.*}};
// CHECK-DAG: st.param.v4.b32 [param0+48], {{.*}};
// CHECK: call.uni (retval0), _ZL6bscale3Bigf, (param0, param1);
// CHECK-COUNT-4: ld.param.v4.b32 {{.*}}, [retval0{{(\+[0-9]+)?}}];
// CHECK-COUNT-16: st.global.b32
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z10big_kernel3BigPS_f(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void big_kernel(Big b, Big *out, float s) { out[tid()] = bscale(b, s); }
// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[64]) _ZL6bscale3Bigf(
// CHECK-NEXT: .param .align 16 .b8 _ZL6bscale3Bigf_param_0[64],
// CHECK-NOT: cvta
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL6bscale3Bigf_param_0];
// CHECK-NOT: cvta
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL6bscale3Bigf_param_0+48];
// CHECK-NOT: cvta
// CHECK: st.param.v4.b32 [func_retval0
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .align 16 .b8 func_retval0[64]) _ZL6bscale3Bigf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}

// An external device function taking a Vec3 by value keeps its signature
// (a byval .param, aligned as the ABI says) as a wrapper that reads it in
// param space and calls the internal clone the module's own calls use, which
// takes the Vec3 as its value (internal, so aligned to 16: .v2 + .b32, one
// st.param fewer than three flattened .b32); the kernel passes its own
// fields to the clone.
// CHECK-LABEL: .func  (.param .b32 func_retval0) _Z7ext_len4Vec3_ptxcc(
// CHECK-NEXT: .param .align 16 .b8 _Z7ext_len4Vec3_ptxcc_param_0[12]
// CHECK-NEXT: )
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_Z7ext_len4Vec3_ptxcc_param_0];
// CHECK-DAG: ld.param.b32 %r{{[0-9]+}}, [_Z7ext_len4Vec3_ptxcc_param_0+8];
// CHECK: sqrt.rn.f32
// CHECK: ret;
// CHECK-LABEL: .func  (.param .b32 func_retval0) _Z7ext_len4Vec3(
// CHECK-NEXT: .param .align 4 .b8 _Z7ext_len4Vec3_param_0[12]
// CHECK-DAG: ld.param.b32 %r[[X:[0-9]+]], [_Z7ext_len4Vec3_param_0];
// CHECK-DAG: ld.param.b32 %r[[Y:[0-9]+]], [_Z7ext_len4Vec3_param_0+4];
// CHECK-DAG: ld.param.b32 %r[[Z:[0-9]+]], [_Z7ext_len4Vec3_param_0+8];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[X]], %r[[Y]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[Z]];
// CHECK: call.uni (retval0), _Z7ext_len4Vec3_ptxcc, (param0);
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .b32 func_retval0) _Z7ext_len4Vec3(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
NOINLINE DEVICE float ext_len(Vec3 v) { return __builtin_sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }
// CHECK-LABEL: .entry _Z10ext_kernel4Vec3Pf(
// CHECK-DAG: ld.param.b32 %r[[X:[0-9]+]], [_Z10ext_kernel4Vec3Pf_param_0];
// CHECK-DAG: ld.param.b32 %r[[Y:[0-9]+]], [_Z10ext_kernel4Vec3Pf_param_0+4];
// CHECK-DAG: ld.param.b32 %r[[Z:[0-9]+]], [_Z10ext_kernel4Vec3Pf_param_0+8];
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-DAG: st.param.v2.b32 [param0], {%r[[X]], %r[[Y]]};
// CHECK-DAG: st.param.b32 [param0+8], %r[[Z]];
// CHECK: call.uni (retval0), _Z7ext_len4Vec3_ptxcc, (param0);
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z10ext_kernel4Vec3Pf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void ext_kernel(Vec3 v, float *out) { out[tid()] = ext_len(v); }

// Writing through a pointer field is not a write to the struct: no copy;
// the pointer is global.
// CHECK-LABEL: .entry _Z13write_through6Params(
// CHECK: mov.b64 %rd[[P:[0-9]+]], _Z13write_through6Params_param_0;
// CHECK: ld.param.b64 %rd[[DATA:[0-9]+]], [%rd[[P]]];
// CHECK: cvta.to.global.u64 %rd[[G:[0-9]+]], %rd[[DATA]];
// CHECK: add.s64 %rd[[A:[0-9]+]], %rd[[G]], %rd{{[0-9]+}};
// CHECK: st.global.b32 [%rd[[A]]], %r{{[0-9]+}};
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z13write_through6Params(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void write_through(Params p) {
  unsigned i = tid();
  if (i < p.n) p.data[i] = p.scale * i;
}

// A static device function that writes its own byval copy and passes its
// address on. The kernel passes its struct from param space to the call's
// .param (no local copy); the copy is the callee's: its .param's address
// (a .local address by PTX's rules, made by ptxas), written with st.local.
static NOINLINE DEVICE float poke(Params p, int k) {
  p.idx[k & 3] = 0;
  return sum_params(&p);
}
// CHECK-LABEL: .entry _Z11poke_kernel6ParamsPf(
// CHECK: .param .align 16 .b8 param0[32];
// CHECK-DAG: ld.param.v2.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [_Z11poke_kernel6ParamsPf_param_0+24];
// CHECK-DAG: ld.param.b64 %rd[[DATA:[0-9]+]], [_Z11poke_kernel6ParamsPf_param_0];
// CHECK-DAG: st.param.v4.b32 [param0+16], {{.*}};
// CHECK-DAG: st.param.b64 [param0], %rd[[DATA]];
// CHECK: call.uni (retval0), _ZL4poke6Paramsi, (param0, param1);
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z11poke_kernel6ParamsPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// llc alone: no copy with clang's attributes, a 32-byte local copy in the
// kernel without them.
// LLC-LABEL: .entry _Z11poke_kernel6ParamsPf(
// LLC-NOT: .local
// LLC: call.uni (retval0), _ZL4poke6Paramsi, (param0, param1);
// LLC-NOT: .local
// LLC: ret;
// LLCSTRIP-LABEL: .entry _Z11poke_kernel6ParamsPf(
// LLCSTRIP: .local .align 8 .b8 __local_depot{{[0-9]+}}[32];
// LLCSTRIP: call.uni (retval0), _ZL4poke6Paramsi, (param0, param1);
GLOBAL void poke_kernel(Params p, float *out) { out[tid()] = poke(p, tid()); }
// CHECK-LABEL: .func  (.param .b32 func_retval0) _ZL4poke6Paramsi(
// CHECK-NEXT: .param .align 16 .b8 _ZL4poke6Paramsi_param_0[32],
// CHECK-NOT: __local_depot
// CHECK: mov.b64 %rd[[P:[0-9]+]], _ZL4poke6Paramsi_param_0;
// CHECK: cvta.local.u64 %rd[[G:[0-9]+]], %rd[[P]];
// CHECK: add.s64 %rd[[E:[0-9]+]], %rd[[P]], %rd{{[0-9]+}};
// CHECK: st.local.b32 [%rd[[E]]+16], 0;
// CHECK: st.param.b64 [param0], %rd[[G]];
// CHECK: call.uni (retval0), _Z10sum_paramsPK6Params, (param0);
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .b32 func_retval0) _ZL4poke6Paramsi(
// NOLOCAL-NOT: __local_depot
// NOLOCAL: st.local.b32
// NOLOCAL-NOT: __local_depot

// A static device function returning a 32-byte struct that the kernel
// stores whole into global memory: returned in param space (retval0), read
// with ld.param, stored with st.global; no local temporary.
static NOINLINE DEVICE Params make(float *d, int n) {
  Params r = {d, n, 1.0f, {0, 1, 2, 3}};
  return r;
}
// CHECK-LABEL: .entry _Z11make_kernelP6ParamsPf(
// CHECK: .param .align 16 .b8 retval0[32];
// CHECK: call.uni (retval0), _ZL4makePfi, (param0, param1);
// CHECK: ld.param.b64 %rd[[D:[0-9]+]], [retval0];
// CHECK: st.global.b64 [%rd[[OUT:[0-9]+]]], %rd[[D]];
// CHECK: st.global.v2.b32 [%rd[[OUT]]+24], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: ret;
// NOLOCAL-LABEL: .entry _Z11make_kernelP6ParamsPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void make_kernel(Params *out, float *d) { out[tid()] = make(d, tid()); }
// CHECK-LABEL: .func  (.param .align 16 .b8 func_retval0[32]) _ZL4makePfi(
// CHECK-DAG: st.param.b64 [func_retval0], %rd{{[0-9]+}};
// CHECK-DAG: st.param.v4.b32 [func_retval0+16], {0, 1, 2, 3};
// CHECK: ret;
// NOLOCAL-LABEL: .func  (.param .align 16 .b8 func_retval0[32]) _ZL4makePfi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
