// ptxcc as a pass plugin of upstream mlir-opt (Debian's, on the shared
// libMLIR): every ptxcc pass is known by name with its options, the ptxcc
// dialect is loaded when a pass needs it, and the pipeline nested under
// gpu.module gives what ptxcc-opt gives.
// REQUIRES: ptxcc-plugin
// RUN: mlir-opt --load-pass-plugin=%ptxcc-plugin %s --pass-pipeline='builtin.module(gpu.module(ptxcc-pipeline))' -o %t.plugin.mlir
// RUN: %ptxcc-opt %s --ptxcc-pipeline -o %t.driver.mlir
// RUN: diff %t.driver.mlir %t.plugin.mlir
// RUN: FileCheck %s < %t.plugin.mlir
// A single pass with options; its ptxcc ops print through the loaded dialect:
// RUN: mlir-opt --load-pass-plugin=%ptxcc-plugin %s --pass-pipeline='builtin.module(gpu.module(lower-struct-args{chip=sm_80}))' | FileCheck %s --check-prefix=LOWER
// A pass under an op it cannot run on is an error, not an abort:
// RUN: not mlir-opt --load-pass-plugin=%ptxcc-plugin %s --pass-pipeline='builtin.module(gpu.module(llvm.func(ptxcc-pipeline)))' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// And upstream serializes the result:
// RUN: cat %t.plugin.mlir | %gpu-binary-ptx | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %out: !llvm.ptr) attributes {gpu.kernel, nvvm.kernel} {
      %q = llvm.getelementptr %s[0, 2, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(f64, i8, array<4 x i32>)>
      %v = llvm.load %q : !llvm.ptr -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.return
    }
  }
}

// CHECK: gpu.module @kernels [#nvvm.target<chip = "sm_90", features = "+ptx80">] attributes {ptxcc.opt_byval = true}
// CHECK-LABEL: llvm.func @k(
// CHECK-NOT: ptxcc.
// CHECK: llvm.load %{{.*}} : !llvm.ptr<101> -> i32

// LOWER-LABEL: llvm.func @k(
// LOWER: "ptxcc.load_param"(%{{.*}}) {alignment = 8 : i64, offset = 24 : i64} : (!llvm.ptr<101>) -> i32

// ANCHOR: error: pass 'ptxcc-pipeline' runs on a module ('builtin.module' or 'gpu.module') and cannot run nested under 'llvm.func'

// PTX-LABEL: .entry k(
// PTX-NOT: .local
// PTX: ld.param.b32 {{.*}}[k_param_0+24]
