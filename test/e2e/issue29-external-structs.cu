// Issue 29: CUDA as people write it crashed ptxcc-opt (exit 139). Device
// functions that are not `static` are externally visible; ptxcc moves each
// body into an internal clone and keeps a wrapper (external.rs). The split
// used to free the moved body while the symbol-use table still held the
// calls inside it (a use after free on the next function). Three shapes: the
// seven-line program (`k`), the same call in a loop (`k_loop`), and
// templates (`linkonce_odr`, as in an n-body sample: `integrate`), each at
// -O0 and -O2, with and without inlining; all compile and llc accepts them.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: %ptxcc-opt %t.O2.ll --ptxcc-pipeline -o %t.O2.mlir
// RUN: FileCheck %s --input-file=%t.O2.mlir --check-prefix=IR
// RUN: %to-llvmir %t.O2.mlir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %clang-cuda -O0 -S -emit-llvm %s -o %t.O0.ll
// RUN: %ptxcc-opt %t.O0.ll --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %clang-cuda -O2 -fno-inline -S -emit-llvm %s -o %t.O2ni.ll
// RUN: %ptxcc-opt %t.O2ni.ll --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %clang-cuda -O0 -fno-inline -S -emit-llvm %s -o %t.O0ni.ll
// RUN: %ptxcc-opt %t.O0ni.ll --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %ptxcc-opt %t.O0ni.ll --ptxcc-pipeline=whole-program=true | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// They compute what they computed (test/harness), with inlining and without:
// RUN: python3 %repo/test/harness/diffexec.py cuda %s --ptxcc-opt %ptxcc-opt-path | FileCheck %s --check-prefix=SAME
// RUN: python3 %repo/test/harness/diffexec.py cuda %s --ptxcc-opt %ptxcc-opt-path --clang-flag=-fno-inline | FileCheck %s --check-prefix=SAME

// The wrappers keep their ABI; the clones (before them) are internal and
// take the structs as values; the module's calls go to the clones.
// IR-LABEL: llvm.func internal local_unnamed_addr @_Z8interact2V32V4_ptxcc(
// IR-SAME: !llvm.struct<"struct.V3", (f32, f32, f32)>, %{{.*}}: !llvm.struct<"struct.V4", (f32, f32, f32, f32)>)
// IR-LABEL: llvm.func local_unnamed_addr @_Z8interact2V32V4(
// IR: llvm.call @_Z8interact2V32V4_ptxcc(
// IR: llvm.call {{.*}}@_Z8interact2V32V4_ptxcc(

// PTX-DAG: .entry _Z1kP2V4Pf(
// PTX-DAG: .entry _Z6k_loopP2V4Pfi(
// PTX-DAG: .entry _Z9integrateP4vec4IfES1_i(

// SAME: diffexec: {{[0-9]+}} kernels ({{[0-9]+}} same); 0 failing

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
struct V3 { float x, y, z; };
struct V4 { float x, y, z, w; };
__device__ __attribute__((noinline)) V3 interact(V3 a, V4 b) { return {a.x + b.x, a.y, a.z}; }
__device__ __attribute__((noinline)) V3 accel(V4 pos) { V3 acc = {0, 0, 0}; return interact(acc, pos); }
__global__ void k(V4* pos, float* out) { out[0] = accel(pos[0]).x; }

// The same call in a loop.
__device__ __attribute__((noinline)) V3 accel_all(V4 pos, const V4* all, int n) {
  V3 acc = {0, 0, 0};
  for (int i = 0; i < n; i++) acc = interact(acc, all[i]);
  return acc;
}
__global__ void k_loop(V4* pos, float* out, int n) {
  V3 a = accel_all(pos[0], pos, n);
  out[0] = a.x; out[1] = a.y; out[2] = a.z;
}

// Templates: linkonce_odr device functions passing and returning structs.
template <typename T> struct vec3 { T x, y, z; };
template <typename T> struct vec4 { T x, y, z, w; };
template <typename T>
__device__ vec3<T> body_body(vec3<T> ai, vec4<T> bi, vec4<T> bj) {
  vec3<T> r = {bj.x - bi.x, bj.y - bi.y, bj.z - bi.z};
  T s = bj.w * (r.x * r.x + r.y * r.y + r.z * r.z);
  ai.x += r.x * s; ai.y += r.y * s; ai.z += r.z * s;
  return ai;
}
template <typename T>
__device__ vec3<T> tile(vec4<T> pos, const vec4<T>* all, int n) {
  vec3<T> acc = {0, 0, 0};
  for (int i = 0; i < n; i++) acc = body_body<T>(acc, pos, all[i]);
  return acc;
}
__global__ void integrate(vec4<float>* pos, vec4<float>* out, int n) {
  vec3<float> a = tile<float>(pos[0], pos, n & 7);
  out[0].x = a.x; out[0].y = a.y; out[0].z = a.z;
}
