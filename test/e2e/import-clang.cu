// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// The whole tool chain a CUDA front end would use: clang's device IR,
// imported into MLIR, through ptxcc-opt, back to LLVM IR and through llc.
// This proves the path and the launch ABI survive the round trip; the
// struct-args-*.cu tests check what lower-struct-args does on the way.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: mlir-translate --import-llvm %t.ll -o %t.mlir
// RUN: %ptxcc-opt %t.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s

struct S {
  double f;
  char b;
  int a[4];
};

// CHECK-LABEL: .entry _Z4readPi1S(
// CHECK-NEXT: .param .u64 .ptr .align 1 _Z4readPi1S_param_0,
// CHECK-NEXT: .param .align 8 .b8 _Z4readPi1S_param_1[32]
// CHECK: ld.param.b32 %r{{[0-9]+}}, [_Z4readPi1S_param_1+24];
__attribute__((global)) void read(int *out, S s) { *out = s.a[3]; }
