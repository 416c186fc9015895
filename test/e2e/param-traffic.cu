// (-nocudainc: no CUDA headers, so __global__, __device__ and __noinline__
// are spelled as their attributes.)
// No more .param traffic than llc: a 16-byte struct of four ints crosses a
// call to a static device function as llc passes it, one st.param.v4.b32 /
// ld.param.v4.b32, not four .b32 (one .param per leaf would take four of
// each and remove no memory). compare.test checks every kernel of
// this file against llc alone, ld/st.param included.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: %ptxcc-opt %t.ll --ptxcc-pipeline --emit=ptx -o %t.ptx
// RUN: %ptxas-check %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %llc-sm90 %t.ll -o %t.llc.ptx
// RUN: python3 %repo/scripts/ptx_metrics.py %t.llc.ptx > %t.llc.metrics
// RUN: python3 %repo/scripts/ptx_metrics.py %t.ptx > %t.ptxcc.metrics
// RUN: cat %t.llc.metrics %t.ptxcc.metrics | FileCheck %s --check-prefix=TRAFFIC
// llc alone, then ptxcc: the same ld/st.param count, and no local memory
// (llc alone builds from_regs' struct in a 16-byte local slot).
// TRAFFIC: _Z10from_param2I4Pi: {{.*}}ld/st.param [[P1:[0-9]+]]{{$}}
// TRAFFIC: _Z9from_regsPii: local bytes 16, {{.*}}ld/st.param [[P2:[0-9]+]]{{$}}
// TRAFFIC: _Z10from_param2I4Pi: local bytes 0, ld/st.local 0, {{.*}}ld/st.param [[P1]]{{$}}
// TRAFFIC: _Z9from_regsPii: local bytes 0, ld/st.local 0, {{.*}}ld/st.param [[P2]]{{$}}

#define DEVICE static __attribute__((device)) __attribute__((noinline))
#define GLOBAL __attribute__((global))

struct I4 {
  int a, b, c, d;
};

DEVICE int mix(I4 v) { return v.a * 3 + v.b * 5 + v.c * 7 + v.d; }

// From the kernel's own parameter.
// CHECK-LABEL: .entry _Z10from_param2I4Pi(
// CHECK-NOT: .local
// CHECK: .param .align 16 .b8 param0[16];
// CHECK: st.param.v4.b32 [param0], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: call.uni (retval0), _ZL3mix2I4, (param0);
GLOBAL void from_param(I4 v, int *out) { out[0] = mix(v); }

// The callee reads its struct with one ld.param.v4.b32 (llc prints it after
// the first kernel).
// CHECK-LABEL: .func (.param .b32 func_retval0) _ZL3mix2I4(
// CHECK-NEXT: .param .align 16 .b8 _ZL3mix2I4_param_0[16]
// CHECK: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [_ZL3mix2I4_param_0];
// CHECK-NOT: ld.param
// CHECK: st.param.b32 [func_retval0],

// Built in registers.
// CHECK-LABEL: .entry _Z9from_regsPii(
// CHECK-NOT: .local
// CHECK: st.param.v4.b32 [param0], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// CHECK: call.uni (retval0), _ZL3mix2I4, (param0);
GLOBAL void from_regs(int *out, int i) { out[i] = mix(I4{i, i + 1, i * 2, out[i]}); }
