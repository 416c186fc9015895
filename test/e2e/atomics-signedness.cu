// (-nocudainc: no CUDA headers, so __global__, __device__, __shared__ and
// __noinline__ are spelled as their attributes, __syncthreads() as
// __nvvm_bar_sync(0), atomicMin/atomicMax as __atomic_fetch_min/max and
// __nvvm_atom_max_gen_ui.)
// Integer min/max atomics through the whole pipeline: memory-space-opt puts
// each one whose space is provable in that space (kernel pointer
// parameters: global, ptr<1>; __shared__ arrays: shared, ptr<3>) and keeps
// its signedness: `min`/`max` stay signed and `umin`/`umax` stay unsigned,
// so the PTX has atom.<space>.min.s32 for int and atom.<space>.min.u32 for
// unsigned int (a swapped or dropped signedness gives the wrong result for
// negative ints or for unsigned values >= 2^31). An atomic whose space is not
// provable (a pointer loaded from memory, a device function's pointer
// parameter) stays generic: memory-space-opt does not guess.
//
// clang -O2 leaves every atomic here on a generic `ptr` (CLANG): in its IR
// kernel pointer parameters are plain `ptr`s and the shared arrays are
// reached through a constant addrspacecast to generic, so whatever space
// ptxcc's output has, ptxcc put there.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s --input-file=%t.ll --check-prefix=CLANG
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline -o %t.ptxcc.mlir
// RUN: FileCheck %s --input-file=%t.ptxcc.mlir --check-prefix=MLIR
// RUN: %to-llvmir %t.ptxcc.mlir -o %t.ptxcc.ll
// RUN: %llc-sm90 %t.ptxcc.ll -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX
//
// llc -O0 runs no InferAddressSpaces, so whatever space its PTX has was
// already in its input: ptxcc's output gives the same specific spaces at -O0
// (PTX), clang's original IR gives generic atom.min/atom.max (LLCO0).
// RUN: %llc-sm90 -O0 %t.ptxcc.ll -o %t.O0.ptx
// RUN: FileCheck %s --input-file=%t.O0.ptx --check-prefix=PTX
// RUN: %llc-sm90 -O0 %t.ll -o %t.clang.O0.ptx
// RUN: FileCheck %s --input-file=%t.clang.O0.ptx --check-prefix=LLCO0
//
// Prefixes:
// - CLANG, clang's IR: the atomic and its signedness, on a generic ptr;
// - MLIR, ptxcc's output: the atomic, its signedness and its pointer type,
//   with the pointer traced back to its address-space cast or global;
// - PTX, llc at -O2 and at -O0 on ptxcc's output: the one atom each kernel
//   has, with its space and signedness, and no other atom in the kernel;
// - LLCO0, llc -O0 on clang's IR, for contrast: generic atoms only.

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define SHARED __attribute__((shared))
#define NOINLINE __attribute__((noinline))

static DEVICE unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }

extern "C" {

// Signed min on a kernel pointer parameter, through a GEP.
// CLANG-LABEL: define {{.*}} @global_min_s32(
// CLANG: atomicrmw min ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @global_min_s32(
// MLIR: %[[M:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[M]][%{{[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// MLIR: llvm.atomicrmw min %[[A]], %{{[0-9]+}} monotonic {{.*}}: !llvm.ptr<1>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry global_min_s32(
// PTX-NOT: atom.
// PTX: atom.global.min.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry global_min_s32(
// LLCO0-NOT: .global
// LLCO0: atom.min.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void global_min_s32(int *m, const int *in) {
  __atomic_fetch_min(&m[tid() & 7], in[tid()], __ATOMIC_RELAXED);
}

// Unsigned min on a kernel pointer parameter.
// CLANG-LABEL: define {{.*}} @global_min_u32(
// CLANG: atomicrmw umin ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @global_min_u32(
// MLIR: %[[M:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[M]][%{{[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// MLIR: llvm.atomicrmw umin %[[A]], %{{[0-9]+}} monotonic {{.*}}: !llvm.ptr<1>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry global_min_u32(
// PTX-NOT: atom.
// PTX: atom.global.min.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry global_min_u32(
// LLCO0-NOT: .global
// LLCO0: atom.min.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void global_min_u32(unsigned *m, const unsigned *in) {
  __atomic_fetch_min(&m[tid() & 7], in[tid()], __ATOMIC_RELAXED);
}

// Signed max on a kernel pointer parameter.
// CLANG-LABEL: define {{.*}} @global_max_s32(
// CLANG: atomicrmw max ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @global_max_s32(
// MLIR: %[[M:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[M]][%{{[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// MLIR: llvm.atomicrmw max %[[A]], %{{[0-9]+}} monotonic {{.*}}: !llvm.ptr<1>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry global_max_s32(
// PTX-NOT: atom.
// PTX: atom.global.max.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry global_max_s32(
// LLCO0-NOT: .global
// LLCO0: atom.max.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void global_max_s32(int *m, const int *in) {
  __atomic_fetch_max(&m[tid() & 7], in[tid()], __ATOMIC_RELAXED);
}

// Unsigned max on a kernel pointer parameter.
// CLANG-LABEL: define {{.*}} @global_max_u32(
// CLANG: atomicrmw umax ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @global_max_u32(
// MLIR: %[[M:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[M]][%{{[0-9]+}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// MLIR: llvm.atomicrmw umax %[[A]], %{{[0-9]+}} monotonic {{.*}}: !llvm.ptr<1>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry global_max_u32(
// PTX-NOT: atom.
// PTX: atom.global.max.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry global_max_u32(
// LLCO0-NOT: .global
// LLCO0: atom.max.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void global_max_u32(unsigned *m, const unsigned *in) {
  __atomic_fetch_max(&m[tid() & 7], in[tid()], __ATOMIC_RELAXED);
}

// The NVVM builtin (seq_cst, straight on the parameter, no GEP): the
// ordering is kept along with the space and the signedness.
// CLANG-LABEL: define {{.*}} @builtin_max_u32(
// CLANG: atomicrmw umax ptr %0, i32 %1 seq_cst
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @builtin_max_u32(
// MLIR: %[[M:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: llvm.atomicrmw umax %[[M]], %arg1 seq_cst {{.*}}: !llvm.ptr<1>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry builtin_max_u32(
// PTX-NOT: atom.
// PTX: atom.global.max.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry builtin_max_u32(
// LLCO0-NOT: .global
// LLCO0: atom.max.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: .global
// LLCO0: ret;
GLOBAL void builtin_max_u32(unsigned *m, unsigned v) { __nvvm_atom_max_gen_ui(m, v); }

// Signed min on a __shared__ int array, through a GEP off the variable
// (clang's IR: a GEP on a constant addrspacecast of the shared global to
// generic). The atomic's GEP is the first one on the variable after the
// first barrier (the one before it is the initialising store's).
// CLANG-LABEL: define {{.*}} @shared_min_s32(
// CLANG: atomicrmw min ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @shared_min_s32(
// MLIR: %[[S:[0-9]+]] = llvm.mlir.addressof @_ZZ14shared_min_s32E1m : !llvm.ptr<3>
// MLIR: llvm.call_intrinsic "llvm.nvvm.barrier
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[S]][%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
// MLIR: %[[V:[0-9]+]] = llvm.load %{{[0-9]+}} {{.*}}: !llvm.ptr<1> -> i32
// MLIR: llvm.atomicrmw min %[[A]], %[[V]] monotonic {{.*}}: !llvm.ptr<3>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry shared_min_s32(
// PTX-NOT: atom.
// PTX: atom.shared.min.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry shared_min_s32(
// LLCO0-NOT: atom.shared
// LLCO0: cvta.shared.u64
// LLCO0-NOT: atom.shared
// LLCO0: atom.min.s32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: atom.shared
// LLCO0: ret;
GLOBAL void shared_min_s32(const int *in, int *out) {
  SHARED int m[32];
  unsigned t = tid();
  if (t < 32) m[t] = 0x7fffffff;
  __nvvm_bar_sync(0);
  __atomic_fetch_min(&m[t & 31], in[t], __ATOMIC_RELAXED);
  __nvvm_bar_sync(0);
  if (t < 32) out[t] = m[t];
}

// Unsigned min on a __shared__ unsigned array.
// CLANG-LABEL: define {{.*}} @shared_min_u32(
// CLANG: atomicrmw umin ptr %{{[0-9]+}}, i32 %{{[0-9]+}} monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @shared_min_u32(
// MLIR: %[[S:[0-9]+]] = llvm.mlir.addressof @_ZZ14shared_min_u32E1m : !llvm.ptr<3>
// MLIR: llvm.call_intrinsic "llvm.nvvm.barrier
// MLIR: %[[A:[0-9]+]] = llvm.getelementptr {{.*}}%[[S]][%{{[0-9]+}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
// MLIR: %[[V:[0-9]+]] = llvm.load %{{[0-9]+}} {{.*}}: !llvm.ptr<1> -> i32
// MLIR: llvm.atomicrmw umin %[[A]], %[[V]] monotonic {{.*}}: !llvm.ptr<3>, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry shared_min_u32(
// PTX-NOT: atom.
// PTX: atom.shared.min.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
// LLCO0-LABEL: .entry shared_min_u32(
// LLCO0-NOT: atom.shared
// LLCO0: cvta.shared.u64
// LLCO0-NOT: atom.shared
// LLCO0: atom.min.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// LLCO0-NOT: atom.shared
// LLCO0: ret;
GLOBAL void shared_min_u32(const unsigned *in, unsigned *out) {
  SHARED unsigned m[32];
  unsigned t = tid();
  if (t < 32) m[t] = 0xffffffffu;
  __nvvm_bar_sync(0);
  __atomic_fetch_min(&m[t & 31], in[t], __ATOMIC_RELAXED);
  __nvvm_bar_sync(0);
  if (t < 32) out[t] = m[t];
}

// Not provable: a pointer loaded from global memory may point anywhere
// (global, shared, local). The load of it is global; the atomic through it
// is generic, and still unsigned.
// CLANG-LABEL: define {{.*}} @indirect_min_u32(
// CLANG: atomicrmw umin ptr %{{[0-9]+}}, i32 %1 monotonic
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @indirect_min_u32(
// MLIR: %[[PP:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
// MLIR: %[[Q:[0-9]+]] = llvm.load %[[PP]] {{.*}}: !llvm.ptr<1> -> !llvm.ptr
// MLIR-NOT: llvm.addrspacecast %[[Q]]
// MLIR: llvm.atomicrmw umin %[[Q]], %arg1 monotonic {{.*}}: !llvm.ptr, i32
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry indirect_min_u32(
// PTX: ld.global.b64 %rd[[Q:[0-9]+]], [%rd{{[0-9]+}}];
// PTX-NOT: atom.
// PTX: atom.min.u32 %r{{[0-9]+}}, [%rd[[Q]]], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
GLOBAL void indirect_min_u32(unsigned **pp, unsigned v) {
  __atomic_fetch_min(*pp, v, __ATOMIC_RELAXED);
}

// Not provable: a device function's pointer parameter (min_u32 is external,
// it may be called with any pointer, even though its one caller here passes
// a global one). The atomic stays generic in min_u32, and unsigned.
// CLANG-LABEL: define {{.*}} void @min_u32(
// CLANG: atomicrmw umin ptr %0, i32 %1 monotonic
// MLIR-LABEL: llvm.func {{.*}}@min_u32(
// MLIR-NOT: llvm.addrspacecast
// MLIR: llvm.atomicrmw umin %arg0, %arg1 monotonic {{.*}}: !llvm.ptr, i32
// MLIR-NOT: llvm.addrspacecast
// MLIR: llvm.return
// PTX-LABEL: .func min_u32(
// PTX-NOT: atom.
// PTX: atom.min.u32 %r{{[0-9]+}}, [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.
// PTX: ret;
NOINLINE DEVICE void min_u32(unsigned *p, unsigned v) { __atomic_fetch_min(p, v, __ATOMIC_RELAXED); }
// The kernel only calls it (no atomic of its own, none inlined).
// MLIR-LABEL: llvm.func {{.*}}ptx_kernelcc @via_call(
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.call {{.*}}@min_u32(
// MLIR-NOT: llvm.atomicrmw
// MLIR: llvm.return
// PTX-LABEL: .entry via_call(
// PTX-NOT: atom.
// PTX: call.uni min_u32, (param0, param1);
// PTX-NOT: atom.
// PTX: ret;
GLOBAL void via_call(unsigned *p, unsigned v) { min_u32(p, v); }

}
