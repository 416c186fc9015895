// (-nocudainc: no CUDA headers, so __global__ is spelled as its attribute.)
// Large byval structs that the kernel writes: the local copy is a loop of
// the widest access the alignment allows, not llc's byte loop (seed 001,
// "Vectorized Copies"). LLVM's memcpy expansion asks NVPTX for its loop
// type and gets i8: 1,024 iterations of ld.param.b8 / st.local.b8 for 1 KB.
// Differential execution (diffexec.test) runs these kernels too.
// RUN: %clang-cuda -O2 -S -emit-llvm %s -o %t.ll
// RUN: %ptxcc-opt %t.ll --ptxcc-pipeline --emit=ptx | %ptxas-check | FileCheck %s
// RUN: %llc-sm90 %t.ll -o - | FileCheck %s --check-prefix=LLC
// Before LLVM's optimizer, where MLIR compilers run ptxcc (unoptimized IR,
// llvm-opt-after): the written parameter is copied by ptxcc's loop too, not
// left for llc to copy after the optimizer (a byte loop: 2,096 SASS
// instructions for big_sum, against 64 with ptxcc's loop).
// RUN: %clang-cuda -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.O0.ll
// RUN: mlir-translate --import-llvm %t.O0.ll -o %t.O0.mlir
// RUN: %ptxcc-opt %t.O0.mlir --ptxcc-pipeline=llvm-opt-after=true | %to-llvmir | %opt-O3-sm90 | %llc-sm90 | FileCheck %s --check-prefix=OPT-AFTER
// The MLIR GPU flow: gpu-module-to-binary at the #nvvm.target's O level.
// RUN: python3 %repo/scripts/gpu_module.py < %t.O0.mlir > %t.gpu.mlir
// RUN: %ptxcc-opt %t.gpu.mlir --ptxcc-pipeline | %gpu-binary-ptx | FileCheck %s --check-prefix=OPT-AFTER
// Without ptxcc, the same IR: the byte loop.
// RUN: %opt-O3-sm90 %t.O0.ll | %llc-sm90 | FileCheck %s --check-prefix=LLC

// 16-aligned, 1 KB: 64 iterations of one v4 pair.
struct __attribute__((aligned(16))) Big {
  int a[256];
};
// CHECK-LABEL: .entry _Z7big_sum3BigPii(
// CHECK: .local .align 16 .b8 __local_depot{{[0-9]+}}[1024];
// CHECK: mov.b64 %rd[[I:[0-9]+]], 0;
// CHECK: [[LOOP:\$L__BB[0-9]+_[0-9]+]]:
// CHECK-NEXT: .pragma "nounroll";
// CHECK-NEXT: add.s64 %rd[[S:[0-9]+]], %rd{{[0-9]+}}, %rd[[I]];
// CHECK-NEXT: ld.param.v4.b32 {[[V:%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+]]}, [%rd[[S]]];
// CHECK-NEXT: add.s64 %rd[[D:[0-9]+]], %rd{{[0-9]+}}, %rd[[I]];
// CHECK-NEXT: st.local.v4.b32 [%rd[[D]]], {[[V]]};
// CHECK-NEXT: add.s64 %rd[[I]], %rd[[I]], 16;
// CHECK-NEXT: setp.lt.u64 %p[[MORE:[0-9]+]], %rd[[I]], 1024;
// CHECK-NEXT: @%p[[MORE]] bra [[LOOP]];
// CHECK-NOT: ld.param.b8
// CHECK: ret;
// LLC-LABEL: .entry _Z7big_sum3BigPii(
// LLC: ld.param.b8
// LLC: st.local.b8
// LLC: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 1;
// LLC: setp.lt.u64 %p{{[0-9]+}}, %rd{{[0-9]+}}, 1024;
// OPT-AFTER-LABEL: .entry _Z7big_sum3BigPii(
// OPT-AFTER: .local .align 16 .b8 __local_depot{{[0-9]+}}[1024];
// OPT-AFTER: .pragma "nounroll";
// OPT-AFTER: ld.param.v4.b32
// OPT-AFTER: st.local.v4.b32
// OPT-AFTER-NOT: ld.param.b8
// OPT-AFTER: ret;
__attribute__((global)) void big_sum(Big b, int *out, int i) {
  b.a[i & 255] = i;
  int s = 0;
  for (int j = 0; j < 256; j += 15)
    s += b.a[j];
  out[i] = s;
}

// 4-aligned, 1028 bytes: 257 iterations of one .b32 pair.
struct Odd {
  int a[257];
};
// CHECK-LABEL: .entry _Z7odd_sum3OddPii(
// CHECK: .local .align 4 .b8 __local_depot{{[0-9]+}}[1028];
// CHECK: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NEXT: add.s64
// CHECK-NEXT: st.local.b32
// CHECK-NEXT: add.s64 %rd[[I:[0-9]+]], %rd[[I]], 4;
// CHECK-NEXT: setp.lt.u64 %p{{[0-9]+}}, %rd[[I]], 1028;
// CHECK-NOT: ld.param.b8
// CHECK: ret;
// OPT-AFTER-LABEL: .entry _Z7odd_sum3OddPii(
// OPT-AFTER: .pragma "nounroll";
// OPT-AFTER: ld.param.b32
// OPT-AFTER: st.local.b32
// OPT-AFTER-NOT: ld.param.b8
// OPT-AFTER: ret;
__attribute__((global)) void odd_sum(Odd b, int *out, int i) {
  b.a[i % 257] = 7;
  out[i] = b.a[(i * 3) % 257] + b.a[256];
}
