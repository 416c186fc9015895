// (-nocudainc: no CUDA headers, so __global__, __device__, __shared__ and
// __noinline__ are spelled as their attributes, __syncthreads() as
// __nvvm_bar_sync(0) and atomicAdd as a builtin.)
// memory-space-opt after the whole pipeline (lower-struct-args ->
// lower-alloca -> memory-space-opt -> convert-ptxcc-to-llvm): every access
// whose space is provable is in that space in ptxcc's output (kernel pointer
// parameters and pointers read from a byval kernel parameter: global;
// __shared__ variables: shared; allocas: local; through GEPs, selects and
// loop phis), and every access whose space is not provable stays generic.
//
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// (promote-local=false: local_array's array stays in local memory here, to
// test its accesses; by default promote-local-arrays makes it registers,
// PROMOTED below.)
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline=promote-local=false | %to-llvmir -o %t.ptxcc.ll
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PROMOTED
// RUN: %llc-sm90 %t.ptxcc.ll -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=SPACE
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=GENERIC
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=NOLOCAL
//
// Who does the work: llc -O0 runs no InferAddressSpaces, so whatever space
// its PTX has was already in its input. ptxcc's output compiled with llc -O0
// has the same specific spaces (SPACE, GENERIC); the original clang IR
// compiled with llc -O0 is generic everywhere (LLCO0).
// RUN: %llc-sm90 -O0 %t.ptxcc.ll -o %t.O0.ptx
// RUN: FileCheck %s --input-file=%t.O0.ptx --check-prefix=SPACE
// RUN: FileCheck %s --input-file=%t.O0.ptx --check-prefix=GENERIC
// RUN: FileCheck %s --input-file=%t.O0.ptx --check-prefix=NOLOCAL
// RUN: %llc-sm90 -O0 %t.ll -o - | FileCheck %s --check-prefix=LLCO0
//
// llc alone at its default -O2 is exactly as good on every kernel here:
// NVPTXLowerArgs makes kernel pointer parameters (and pointers loaded from a
// byval kernel parameter) global and InferAddressSpaces propagates that and
// the shared/local casts through GEPs, selects and phis. The original clang
// IR through llc alone passes the same SPACE, GENERIC and NOLOCAL checks
// (the PTX differs only in register numbering and instruction order).
// ptxcc's gain is that its MLIR/LLVM output already carries the spaces,
// whatever runs after it.
// RUN: %llc-sm90 %t.ll -o %t.llc.ptx
// RUN: FileCheck %s --input-file=%t.llc.ptx --check-prefix=SPACE
// RUN: FileCheck %s --input-file=%t.llc.ptx --check-prefix=GENERIC
// RUN: FileCheck %s --input-file=%t.llc.ptx --check-prefix=NOLOCAL
//
// The same through ptxcc without the attributes clang's optimiser infers and
// MLIR front ends never emit: memory-space-opt does not depend on them.
// RUN: sed -E -e 's/ (readonly|writeonly|readnone|captures\([^)]*\)|memory\([^)]*\)|initializes\(\([^)]*\)\))//g' %t.ll > %t.stripped.ll
// RUN: not grep -E 'readonly|writeonly|readnone|captures|memory\(|initializes' %t.stripped.ll
// RUN: mlir-translate --import-llvm %t.stripped.ll -o %t.stripped.mlir
// RUN: %ptxcc-opt %t.stripped.mlir --ptxcc-pipeline=promote-local=false | %to-llvmir | %llc-sm90 -o %t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=SPACE
// RUN: FileCheck %s --input-file=%t.stripped.ptx
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=GENERIC
// RUN: FileCheck %s --input-file=%t.stripped.ptx --check-prefix=NOLOCAL
//
// Prefixes:
// - SPACE, the specific-space accesses each kernel must have;
// - CHECK, what only the default (-O2) PTX through ptxcc is checked for;
// - GENERIC, one label per kernel; where every access is provable, no
//   generic ld/st/atom anywhere in the kernel (the CHECK-NOT between one
//   label and the next covers the whole kernel); where it is not, the
//   generic access that must stay;
// - NOLOCAL, one label per kernel; kernels without a local array have no
//   local memory at all (no __local_depot, %SP/%SPL, .local, ld/st.local);
//   kernels with one have their __local_depot;
// - LLCO0, llc -O0 on the original IR, for contrast.

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define SHARED __attribute__((shared))
#define NOINLINE __attribute__((noinline))

static DEVICE unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }
static DEVICE unsigned gid() {
  return __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
}

// saxpy: x and y are kernel pointer parameters, so global.
// SPACE-LABEL: .entry _Z5saxpyfPKfPfi(
// SPACE-DAG: ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// SPACE-DAG: ld.global.b32 %r{{[0-9]+}}, [%rd[[Y:[0-9]+]]];
// SPACE-DAG: st.global.b32 [%rd[[Y]]], %r{{[0-9]+}};
// GENERIC-LABEL: .entry _Z5saxpyfPKfPfi(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z5saxpyfPKfPfi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z5saxpyfPKfPfi(
// LLCO0-NOT: .global
// LLCO0-COUNT-2: ld.b32
// LLCO0-NOT: .global
// LLCO0: st.b32
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void saxpy(float a, const float *x, float *y, int n) {
  int i = gid();
  if (i < n) y[i] = a * x[i] + y[i];
}

// atomicAdd(float *, float) on a kernel pointer parameter.
// SPACE-LABEL: .entry _Z6reducePKfPfi(
// SPACE: ld.global.b32 %r[[V:[0-9]+]], [%rd{{[0-9]+}}];
// SPACE: atom.global.add.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r[[V]];
// GENERIC-LABEL: .entry _Z6reducePKfPfi(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]|[[:space:]]atom(\.relaxed\.sys)?\.(add|cas)}}
// NOLOCAL-LABEL: .entry _Z6reducePKfPfi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z6reducePKfPfi(
// LLCO0: atom.add.f32
GLOBAL void reduce(const float *x, float *sum, int n) {
  int i = gid();
  if (i < n) __nvvm_atom_add_gen_f(sum, x[i]);
}

// atomicAdd(int *, int) as __atomic_fetch_add, and a compare-and-swap.
// SPACE-LABEL: .entry _Z10reduce_intPKiPii(
// SPACE: atom.global.add.u32
// GENERIC-LABEL: .entry _Z10reduce_intPKiPii(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]|[[:space:]]atom(\.relaxed\.sys)?\.(add|cas)}}
// NOLOCAL-LABEL: .entry _Z10reduce_intPKiPii(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void reduce_int(const int *x, int *sum, int n) {
  int i = gid();
  if (i < n) __atomic_fetch_add(sum, x[i], __ATOMIC_RELAXED);
}

// SPACE-LABEL: .entry _Z3casPiS_(
// SPACE: atom.relaxed.sys.global.cas.b32 %r[[OLD:[0-9]+]], [%rd{{[0-9]+}}], 0, 1;
// SPACE: st.global.b32 [%rd{{[0-9]+}}], %r[[OLD]];
// GENERIC-LABEL: .entry _Z3casPiS_(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]|[[:space:]]atom(\.relaxed\.sys)?\.(add|cas)}}
// NOLOCAL-LABEL: .entry _Z3casPiS_(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z3casPiS_(
// LLCO0: atom.relaxed.sys.cas.b32
GLOBAL void cas(int *flag, int *out) {
  int expected = 0;
  __atomic_compare_exchange_n(flag, &expected, 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  out[tid()] = expected;
}

// A block reduction in __shared__ memory, with a loop (not unrolled) whose
// shared addresses are GEPs off the variable.
// SPACE-LABEL: .entry _Z9block_sumPKfPf(
// SPACE: .shared .align 4 .b8 _ZZ9block_sumPKfPfE3buf[1024];
// SPACE: ld.global.b32 %r[[X:[0-9]+]], [%rd{{[0-9]+}}];
// SPACE: st.shared.b32 [%rd{{[0-9]+}}], %r[[X]];
// SPACE: bar.sync 0;
// SPACE: ld.shared.b32
// SPACE: ld.shared.b32
// SPACE: st.shared.b32
// SPACE: ld.shared.b32 %r[[SUM:[0-9]+]], [_ZZ9block_sumPKfPfE3buf];
// SPACE: st.global.b32 [%rd{{[0-9]+}}], %r[[SUM]];
// GENERIC-LABEL: .entry _Z9block_sumPKfPf(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z9block_sumPKfPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z9block_sumPKfPf(
// LLCO0-NOT: .shared.b32
// LLCO0: cvta.shared.u64
// LLCO0-NOT: .shared.b32
// LLCO0: st.b32
// LLCO0-NOT: .shared.b32
// LLCO0: ret;
GLOBAL void block_sum(const float *x, float *out) {
  SHARED float buf[256];
  unsigned t = tid();
  buf[t] = x[gid()];
  __nvvm_bar_sync(0);
#pragma unroll 1
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __nvvm_bar_sync(0);
  }
  if (t == 0) out[__nvvm_read_ptx_sreg_ctaid_x()] = buf[0];
}

// A shared-memory histogram: atomics on __shared__ memory.
// SPACE-LABEL: .entry _Z11shared_histPKiPi(
// SPACE: st.shared.b32 [%rd{{[0-9]+}}], 0;
// SPACE: atom.shared.add.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], 1;
// SPACE: ld.shared.b32
// GENERIC-LABEL: .entry _Z11shared_histPKiPi(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]|[[:space:]]atom(\.relaxed\.sys)?\.(add|cas)}}
// NOLOCAL-LABEL: .entry _Z11shared_histPKiPi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void shared_hist(const int *in, int *out) {
  SHARED int h[32];
  unsigned t = tid();
  if (t < 32) h[t] = 0;
  __nvvm_bar_sync(0);
  __atomic_fetch_add(&h[in[t] & 31], 1, __ATOMIC_RELAXED);
  __nvvm_bar_sync(0);
  if (t < 32) out[t] = h[t];
}

// A pointer read out of a byval struct parameter (read in param space, no
// copy) is a launch argument, so global.
struct Buf {
  float *data;
  int n;
};
// SPACE-LABEL: .entry _Z11from_struct3BufPf(
// SPACE: ld.param.b32 %r{{[0-9]+}}, [_Z11from_struct3BufPf_param_0+8];
// SPACE: ld.param.b64 %rd[[DATA:[0-9]+]], [{{.*}}];
// SPACE: cvta.to.global.u64 %rd[[G:[0-9]+]], %rd[[DATA]];
// SPACE: add.s64 %rd[[A:[0-9]+]], %rd[[G]], %rd{{[0-9]+}};
// SPACE: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]];
// SPACE: st.global.b32
// CHECK-LABEL: .entry _Z11from_struct3BufPf(
// CHECK: ld.param.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
// GENERIC-LABEL: .entry _Z11from_struct3BufPf(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z11from_struct3BufPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z11from_struct3BufPf(
// LLCO0-NOT: .global.b32
// LLCO0: ld.b32
// LLCO0-NOT: .global.b32
// LLCO0: ret;
GLOBAL void from_struct(Buf b, float *out) {
  int i = gid();
  if (i < b.n) out[i] = b.data[i] * 2.0f;
}

// A loop walking a pointer: the phi of the loop header is global.
// SPACE-LABEL: .entry _Z4walkPKfS0_Pf(
// SPACE-DAG: ld.global.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// SPACE-DAG: st.global.b32
// CHECK-LABEL: .entry _Z4walkPKfS0_Pf(
// CHECK: $L__BB[[LOOP:[0-9_]+]]:
// CHECK-NEXT: ld.global.b32 %r{{[0-9]+}}, [%rd[[P:[0-9]+]]];
// CHECK-NEXT: add.f32
// CHECK-NEXT: add.s64 %rd[[P]], %rd[[P]], 128;
// CHECK-NEXT: setp.lt.u64
// CHECK-NEXT: @%p{{[0-9]+}} bra $L__BB[[LOOP]];
// GENERIC-LABEL: .entry _Z4walkPKfS0_Pf(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z4walkPKfS0_Pf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
// LLCO0-LABEL: .entry _Z4walkPKfS0_Pf(
// LLCO0-NOT: .global.b32
// LLCO0: ld.b32
// LLCO0-NOT: .global.b32
// LLCO0: ret;
GLOBAL void walk(const float *x, const float *end, float *out) {
  float s = 0.f;
  for (const float *p = x + tid(); p < end; p += 32) s += *p;
  out[tid()] = s;
}

// A select between two global pointers is global.
// SPACE-LABEL: .entry _Z4pickPKfS0_Pfi(
// SPACE: selp.b64 %rd[[P:[0-9]+]],
// SPACE: add.s64 %rd[[A:[0-9]+]], %rd[[P]], %rd{{[0-9]+}};
// SPACE: ld.global.b32 %r{{[0-9]+}}, [%rd[[A]]];
// GENERIC-LABEL: .entry _Z4pickPKfS0_Pfi(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z4pickPKfS0_Pfi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void pick(const float *a, const float *b, float *out, int c) {
  const float *p = (c & 1) ? a : b;
  out[tid()] = p[tid()];
}

// memcpy of a run-time size between kernel pointers: llc expands it into a
// byte loop, in global space.
// SPACE-LABEL: .entry _Z6copy_nPcPKcm(
// SPACE: ld.global.b8
// SPACE: st.global.b8
// GENERIC-LABEL: .entry _Z6copy_nPcPKcm(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z6copy_nPcPKcm(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void copy_n(char *dst, const char *src, unsigned long n) { __builtin_memcpy(dst, src, n); }

// A local array indexed with a thread-dependent index stays in memory: a
// __local_depot, st.local to fill it and ld.local to read it, at %SPL (the
// local address; lower-alloca's generic alloca + local view, folded by llc).
// SPACE-LABEL: .entry _Z11local_arrayPKiPii(
// SPACE: .local .align 4 .b8 __local_depot{{[0-9]+}}[64];
// SPACE: mov.b64 %SPL, __local_depot{{[0-9]+}};
// SPACE-COUNT-16: st.local.b32 [%rd{{[0-9]+}}{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// SPACE: ld.local.b32 %r[[V:[0-9]+]], [%rd{{[0-9]+}}];
// SPACE: st.global.b32 [%rd{{[0-9]+}}], %r[[V]];
// CHECK-LABEL: .entry _Z11local_arrayPKiPii(
// CHECK-NOT: cvta.local
// CHECK: add.u64 %rd[[A:[0-9]+]], %SPL, 0;
// CHECK-NOT: cvta.local
// CHECK: st.local.b32 [%rd[[A]]], %r{{[0-9]+}};
// CHECK-NOT: cvta.local
// CHECK: st.local.b32 [%rd[[A]]+60], %r{{[0-9]+}};
// CHECK-NOT: cvta.local
// CHECK: ret;
// GENERIC-LABEL: .entry _Z11local_arrayPKiPii(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z11local_arrayPKiPii(
// NOLOCAL: __local_depot
// LLCO0-LABEL: .entry _Z11local_arrayPKiPii(
// LLCO0: .local .align 4 .b8 __local_depot{{[0-9]+}}[64];
// LLCO0-NOT: .local.b32
// LLCO0: st.b32 [%SP],
// LLCO0-NOT: .local.b32
// LLCO0: ret;
// PROMOTED-LABEL: .entry _Z11local_arrayPKiPii(
// PROMOTED-NOT: __local_depot
// PROMOTED-COUNT-15: selp
// PROMOTED-NOT: __local_depot
// PROMOTED: ret;
GLOBAL void local_array(const int *in, int *out, int k) {
  int a[16];
  for (int j = 0; j < 16; ++j) a[j] = in[j * 32 + tid()];
  out[tid()] = a[(k + tid()) & 15];
}

// Not provable, so generic: a select between a local array and a global
// pointer (the array is filled with st.local, the read through the select
// is a generic ld).
// SPACE-LABEL: .entry _Z5mixedPKiPii(
// SPACE: .local .align 4 .b8 __local_depot{{[0-9]+}}[64];
// SPACE-COUNT-16: st.local.b32
// CHECK-LABEL: .entry _Z5mixedPKiPii(
// CHECK: cvta.local.u64 %SP, %SPL;
// CHECK: add.u64 %rd[[GEN:[0-9]+]], %SP, 0;
// CHECK: selp.b64 %rd[[P:[0-9]+]], %rd[[GEN]], %rd{{[0-9]+}}, %p{{[0-9]+}};
// CHECK: add.s64 %rd[[A:[0-9]+]], %rd[[P]], %rd{{[0-9]+}};
// CHECK: ld.b32 %r{{[0-9]+}}, [%rd[[A]]];
// GENERIC-LABEL: .entry _Z5mixedPKiPii(
// GENERIC-NOT: ld.local
// GENERIC: ld.b32
// GENERIC-NOT: ld.local
// NOLOCAL-LABEL: .entry _Z5mixedPKiPii(
// NOLOCAL: __local_depot
GLOBAL void mixed(const int *g, int *out, int k) {
  int a[16];
  for (int j = 0; j < 16; ++j) a[j] = g[j + tid()];
  const int *p = (k & 1) ? a : g;
  out[tid()] = p[(k + tid()) & 15];
}

// Not provable: a pointer loaded from global memory (not from a byval
// parameter) may point anywhere. pp[0] is read with ld.global.b64; the
// pointer it gives is read generically.
// SPACE-LABEL: .entry _Z8indirectPPfS_(
// SPACE: ld.global.b64 %rd[[Q:[0-9]+]], [%rd{{[0-9]+}}];
// SPACE: st.global.b32
// CHECK-LABEL: .entry _Z8indirectPPfS_(
// CHECK: ld.global.b64 %rd[[Q:[0-9]+]], [%rd{{[0-9]+}}];
// CHECK: add.s64 %rd[[A:[0-9]+]], %rd[[Q]], %rd{{[0-9]+}};
// CHECK: ld.b32 %r{{[0-9]+}}, [%rd[[A]]];
// GENERIC-LABEL: .entry _Z8indirectPPfS_(
// GENERIC: ld.b32
// NOLOCAL-LABEL: .entry _Z8indirectPPfS_(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void indirect(float **pp, float *out) { out[tid()] = pp[0][tid()]; }

// Not provable: a device function's pointer parameter (load_it is external,
// it may be called with any pointer). Its caller's own accesses are global.
// GENERIC-LABEL: .func  (.param .b32 func_retval0) _Z7load_itPKfi(
// GENERIC: ld.b32
// NOLOCAL-LABEL: .func  (.param .b32 func_retval0) _Z7load_itPKfi(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
NOINLINE DEVICE float load_it(const float *p, int i) { return p[i]; }
// SPACE-LABEL: .entry _Z8via_callPKfPf(
// SPACE: call.uni (retval0), _Z7load_itPKfi, (param0, param1);
// SPACE: st.global.b32
// GENERIC-LABEL: .entry _Z8via_callPKfPf(
// GENERIC-NOT: {{[[:space:]](ld|st)(\.v[248])?\.[bfsu][0-9]+[[:space:]]}}
// NOLOCAL-LABEL: .entry _Z8via_callPKfPf(
// NOLOCAL-NOT: {{\.local|__local_depot|%SP}}
GLOBAL void via_call(const float *x, float *out) { out[tid()] = load_it(x, tid()); }
