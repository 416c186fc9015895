// --emit=ptx on the form MLIR GPU compilers hand over: the PTX of each
// gpu.module for each of its #nvvm.targets, as gpu-module-to-binary
// {format=isa} makes it (LLVM's optimizer at the target's O level, then
// the NVPTX backend for its chip and features), one after another behind a
// header line; host code is left out.
// RUN: %ptxcc-opt %s --ptxcc-pipeline --emit=ptx | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline --emit=ptx -o %t.ptx && FileCheck %s < %t.ptx
// The same PTX as upstream's gpu-module-to-binary, but for llc's comments
// and, at O = 0, the order of two ld.param.
// RUN: %ptxcc-opt %s --ptxcc-pipeline | mlir-opt --gpu-module-to-binary=format=isa | FileCheck %s --check-prefix=UPSTREAM

// Without an NVVM target (upstream refuses it): as a module of LLVM
// functions (the pipeline's chip and ptx, else the functions', else sm_90),
// without the optimizer.
// RUN: printf 'gpu.module @plain {\n  llvm.func @f() attributes {nvvm.kernel} {\n    llvm.return\n  }\n}\n' > %t.plain.mlir
// RUN: %ptxcc-opt %t.plain.mlir --emit=ptx | FileCheck %s --check-prefix=PLAIN
// PLAIN: // ptxcc-opt: gpu.module @plain, no #nvvm.target: sm_90, +ptx78, O = 0
// PLAIN: .target sm_90
// PLAIN: .visible .entry f(
// RUN: %ptxcc-opt %t.plain.mlir --ptxcc-pipeline='chip=sm_80 ptx=75' --emit=ptx | FileCheck %s --check-prefix=PLAIN-80
// PLAIN-80: // ptxcc-opt: gpu.module @plain, no #nvvm.target: sm_80, +ptx75, O = 0
// PLAIN-80: .version 7.5
// PLAIN-80-NEXT: .target sm_80

module attributes {gpu.container_module} {
  // CHECK: // ptxcc-opt: gpu.module @kernels, #nvvm.target 1 of 1: sm_90, +ptx80, O = 2
  // CHECK-NEXT: //
  // CHECK: .version 8.0
  // CHECK-NEXT: .target sm_90
  // CHECK-LABEL: .visible .entry k(
  // CHECK: ld.param.b32 %{{.*}}, [k_param_0];
  // The internal device function is inlined at O = 2.
  // CHECK-NOT: call
  // CHECK: ret;
  // UPSTREAM: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80">, {{.*}}.target sm_90{{.*}}.visible .entry k({{.*}}ld.param.b32
  // UPSTREAM-NOT: call.uni
  // UPSTREAM-SAME: ">]
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func internal @first(%s: !llvm.ptr) -> i32 {
      %v = llvm.load %s : !llvm.ptr -> i32
      llvm.return %v : i32
    }
    llvm.func @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}, %out: !llvm.ptr)
        attributes {gpu.kernel, nvvm.kernel} {
      %v = llvm.call @first(%s) : (!llvm.ptr) -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    }
  }

  // One PTX text per target: at O = 0 no optimizer runs (the call stays),
  // at O = 3 it does; without features, the chip's minimum PTX version.
  // CHECK: // ptxcc-opt: gpu.module @two, #nvvm.target 1 of 2: sm_80, +ptx70, O = 0
  // CHECK: .version 7.0
  // CHECK-NEXT: .target sm_80
  // CHECK-LABEL: .visible .entry add(
  // CHECK: call.uni
  // CHECK: // ptxcc-opt: gpu.module @two, #nvvm.target 2 of 2: sm_90a, +ptx81, O = 3
  // CHECK: .version 8.1
  // CHECK-NEXT: .target sm_90a
  // CHECK-LABEL: .visible .entry add(
  // CHECK-NOT: call
  // CHECK: add.s32 %{{.*}}, 1;
  // UPSTREAM: gpu.binary @two [#gpu.object<#nvvm.target<O = 0, chip = "sm_80">, {{.*}}.target sm_80{{.*}}call.uni{{.*}}">, #gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx81">, {{.*}}.target sm_90a{{.*}}add.s32
  gpu.module @two [#nvvm.target<O = 0, chip = "sm_80">, #nvvm.target<O = 3, chip = "sm_90a", features = "+ptx81">] {
    llvm.func internal @plus_one(%n: i32) -> i32 {
      %c = llvm.mlir.constant(1 : i32) : i32
      %s = llvm.add %n, %c : i32
      llvm.return %s : i32
    }
    llvm.func @add(%a: !llvm.ptr<1>, %n: i32) attributes {gpu.kernel, nvvm.kernel} {
      %s = llvm.call @plus_one(%n) : (i32) -> i32
      llvm.store %s, %a : i32, !llvm.ptr<1>
      llvm.return
    }
  }

  // Host code is not compiled.
  // CHECK-NOT: host
  llvm.func @host() {
    llvm.return
  }
}
