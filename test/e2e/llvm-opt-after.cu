// ptxcc before LLVM's optimizer, where MLIR compilers run it (issue 17's
// kernels): unoptimized IR (clang -O0 without optnone), ptxcc with
// llvm-opt-after=true, then opt -O3 and llc. No kernel gets local memory
// that opt -O3 + llc alone does not give it, and the device calls, which
// now take the Vec3s as SSA values (one 12-byte .param each, llc's .v2 +
// .b32, one st.param fewer than three flattened .b32), remove what they
// leave (triple: 12 -> 0 bytes).
// RUN: %clang-cuda -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline=llvm-opt-after=true | %to-llvmir | %opt-O3-sm90 | %llc-sm90 | FileCheck %s
// Without ptxcc:
// RUN: %opt-O3-sm90 %t.ll | %llc-sm90 | FileCheck %s --check-prefix=OPT
// With ptxcc deciding as if llc came next (the default outside a gpu.module):
// the -O0 shapes make it copy what the optimizer would have removed.
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %opt-O3-sm90 | %llc-sm90 | FileCheck %s --check-prefix=EARLY
// The same source as an MLIR GPU program: the gpu.module's #nvvm.target
// (O = 2 by default) says the optimizer comes, without the option.
// RUN: python3 %repo/scripts/gpu_module.py < %t.mlir > %t.gpu.mlir
// RUN: %ptxcc-opt %t.gpu.mlir --ptxcc-pipeline | %gpu-binary-ptx | FileCheck %s

#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define NOINLINE __attribute__((noinline))

struct S { float a[8]; };
struct Vec3 { float x, y, z; };
struct Mat4 { float m[16]; };

DEVICE NOINLINE static float sum(const S *s) {
  float t = 0;
  for (int i = 0; i < 8; i++) t += s->a[i];
  return t;
}
GLOBAL void read_through(S s, float *out) { *out = sum(&s); }

DEVICE NOINLINE static float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
DEVICE NOINLINE static Vec3 cross(Vec3 a, Vec3 b) {
  return Vec3{a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
DEVICE NOINLINE static float det(Mat4 m) { return m.m[0] * m.m[5] - m.m[1] * m.m[4] + m.m[10] * m.m[15]; }
GLOBAL void triple(Vec3 a, Vec3 b, Mat4 m, float *out) { out[0] = dot(a, cross(a, b)) + det(m); }

DEVICE NOINLINE static Mat4 twice(Mat4 a) {
  for (int i = 0; i < 16; i++) a.m[i] *= 2;
  return a;
}
GLOBAL void big(Mat4 m, Mat4 *out) { *out = twice(m); }

// CHECK-LABEL: .entry _Z12read_through1SPf(
// CHECK-NOT: .local
// CHECK: ret;
// OPT-LABEL: .entry _Z12read_through1SPf(
// OPT-NOT: .local
// OPT: ret;
// EARLY-LABEL: .entry _Z12read_through1SPf(
// EARLY: .local .align 4 .b8 __local_depot{{[0-9]+}}[32];

// The Vec3s go to cross and dot as their values: the same 12-byte .params
// (aligned to 16) opt + llc declare, without the 12-byte depot where opt +
// llc alone still store cross's result.
// CHECK-LABEL: .entry _Z6triple4Vec3S_4Mat4Pf(
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .align 16 .b8 retval0[12];
// CHECK: call.uni (retval0), _ZL5cross4Vec3S_, (param0, param1);
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[12];
// CHECK-NEXT: .param .align 16 .b8 param1[12];
// CHECK-NEXT: .param .b32 retval0;
// CHECK: call.uni (retval0), _ZL3dot4Vec3S_, (param0, param1);
// CHECK-NOT: .local
// CHECK: ret;
// OPT-LABEL: .entry _Z6triple4Vec3S_4Mat4Pf(
// OPT: .local .align 4 .b8 __local_depot{{[0-9]+}}[12];
// (Even deciding early, triple's Mat4 needs no copy: det takes it by value,
// and its -O0 slot goes with the optimizer.)
// EARLY-LABEL: .entry _Z6triple4Vec3S_4Mat4Pf(
// EARLY-NOT: __local_depot
// EARLY: ret;

// CHECK-LABEL: .entry _Z3big4Mat4PS_(
// CHECK-NOT: .local
// CHECK: ret;
// OPT-LABEL: .entry _Z3big4Mat4PS_(
// OPT-NOT: .local
// OPT: ret;
// EARLY-LABEL: .entry _Z3big4Mat4PS_(
// EARLY: .local .align 4 .b8 __local_depot{{[0-9]+}}[64];
