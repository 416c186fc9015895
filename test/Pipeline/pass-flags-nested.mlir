// Function passes given as flags reach the functions of nested modules too,
// as ptxcc-pipeline does: `--lower-struct-args --lower-alloca
// --memory-space-opt --convert-ptxcc-to-llvm` used to lower the ptxcc ops of
// top-level functions only and leave those of nested modules in the output
// with exit status 0 (36 of 1,000 generated modules).
// RUN: %ptxcc-opt %s --lower-struct-args --lower-alloca --memory-space-opt --convert-ptxcc-to-llvm | FileCheck %s --implicit-check-not=ptxcc.load_param --implicit-check-not=ptxcc.copy_param
// (mlir-translate translates the top-level functions only.)
// RUN: %ptxcc-opt %s --lower-struct-args --lower-alloca --memory-space-opt --convert-ptxcc-to-llvm | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// RUN: %ptxcc-opt %s --ptxcc-pipeline > %t.pipeline
// RUN: %ptxcc-opt %s --lower-struct-args --lower-alloca --memory-space-opt --convert-ptxcc-to-llvm | diff %t.pipeline -

// CHECK-LABEL: llvm.func ptx_kernelcc @top(
// CHECK: llvm.load %{{.*}} : !llvm.ptr<101> -> i32
// PTX-LABEL: .entry top(
// PTX: ld.param.b32 {{.*}}[top_param_0+4]
llvm.func ptx_kernelcc @top(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %p = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: module @inner
// CHECK-LABEL: llvm.func ptx_kernelcc @nested(
// CHECK: llvm.load %{{.*}} : !llvm.ptr<101> -> i32
// CHECK: llvm.store %{{.*}} : i32, !llvm.ptr<1>
// CHECK: llvm.store volatile %{{.*}} : i32, !llvm.ptr<5>
module @inner {
  module @innermost {
    llvm.func ptx_kernelcc @nested(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
      %one = llvm.mlir.constant(1 : i32) : i32
      %slot = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
      %p = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
      %v = llvm.load %p : !llvm.ptr -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      llvm.store %v, %slot {volatile_} : i32, !llvm.ptr
      llvm.return
    }
  }
}
