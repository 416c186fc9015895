// (-nocudainc: no CUDA headers, so __global__ and __grid_constant__ are
// spelled as their attributes.)
// __grid_constant__ through the whole CUDA flow in one tool: clang's
// bitcode on standard input, ptxcc's pipeline, PTX out. A grid constant
// whose address escapes is passed as a generic pointer into param space
// (cvta.param), never copied to local memory; ptxcc-opt keeps the mark on
// import (mlir-translate --import-llvm drops it, and each of these kernels
// then gets a local copy).
// RUN: %clang-cuda -O2 -emit-llvm -c %s -o - | %ptxcc-opt - --ptxcc-pipeline --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas-check %t.ptx
// The same PTX as llc alone on clang's IR, in local memory and param
// traffic: nothing is left for llc to do better.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: %llc-sm90 %t.ll -o %t.llc.ptx
// RUN: python3 %repo/scripts/ptx_metrics.py %t.ptx > %t.ptxcc.metrics
// RUN: python3 %repo/scripts/ptx_metrics.py %t.llc.ptx > %t.llc.metrics
// RUN: diff %t.llc.metrics %t.ptxcc.metrics

struct Params {
  float scale;
  int n;
  float bias[4];
};

__attribute__((device, noinline)) float consume(const Params *p);
__attribute__((device, noinline)) float pick(const float *p, int i);

// CHECK-LABEL: .entry _Z9by_callee6ParamsPf(
// CHECK-NOT: .local
// CHECK: cvta.param.u64
// CHECK: call.uni (retval0), _Z7consumePK6Params,
// CHECK: ret;
__attribute__((global)) void by_callee(const __attribute__((grid_constant)) Params p, float *out) {
  out[0] = consume(&p);
}

// An element's address, computed at run time.
// CHECK-LABEL: .entry _Z10by_element6ParamsPfi(
// CHECK-NOT: .local
// CHECK: cvta.param.u64
// CHECK: call.uni (retval0), _Z4pickPKfi,
// CHECK: ret;
__attribute__((global)) void by_element(const __attribute__((grid_constant)) Params p, float *out, int i) {
  out[i] = pick(&p.bias[i & 3], i);
}

// Read only: fields straight from param space.
// CHECK-LABEL: .entry _Z4read6ParamsPf(
// CHECK-NOT: .local
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z4read6ParamsPf_param_0+4];
// CHECK: ret;
__attribute__((global)) void read(const __attribute__((grid_constant)) Params p, float *out) {
  out[p.n] = p.scale * p.bias[1];
}
