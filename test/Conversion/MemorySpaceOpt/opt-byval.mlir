// The shared opt-byval option (seed 002): lower-struct-args records the
// value it ran with, and memory-space-opt with the other value is an error
// at every function it affects, naming the option and both values. Both
// orders of disagreement, and the agreeing runs.
// RUN: not %ptxcc-opt %s --lower-struct-args=opt-byval=false --memory-space-opt=opt-byval=true 2>&1 | FileCheck %s --check-prefix=FALSE-TRUE --implicit-check-not=error:
// RUN: not %ptxcc-opt %s --lower-struct-args=opt-byval=true --memory-space-opt=opt-byval=false 2>&1 | FileCheck %s --check-prefix=TRUE-FALSE --implicit-check-not=error:
// RUN: %ptxcc-opt %s --lower-struct-args=opt-byval=false --memory-space-opt=opt-byval=false | FileCheck %s --check-prefix=AGREE-OFF
// RUN: %ptxcc-opt %s --lower-struct-args --memory-space-opt | FileCheck %s --check-prefix=AGREE-ON
// RUN: %ptxcc-opt %s --ptxcc-pipeline=opt-byval=false | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PIPE-OFF

// FALSE-TRUE: opt-byval.mlir:[[# @LINE + 6]]:1: error: option 'opt-byval' disagrees between passes: lower-struct-args ran with opt-byval=false but memory-space-opt has opt-byval=true; give both passes the same value (ptxcc-pipeline hands one value to both)
// TRUE-FALSE: opt-byval.mlir:[[# @LINE + 5]]:1: error: option 'opt-byval' disagrees between passes: lower-struct-args ran with opt-byval=true but memory-space-opt has opt-byval=false
// AGREE-OFF-LABEL: llvm.func ptx_kernelcc @k(
// AGREE-OFF: llvm.load %{{.*}} : !llvm.ptr -> i32
// AGREE-ON-LABEL: llvm.func ptx_kernelcc @k(
// AGREE-ON: "ptxcc.load_param"
llvm.func ptx_kernelcc @k(%out: !llvm.ptr, %s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}) {
  %p = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// A function without byval parameters or param-space pointers is not
// affected: no error there (--implicit-check-not=error: fails on any error
// line but the one above, in whatever order the threads report).
llvm.func ptx_kernelcc @plain(%out: !llvm.ptr, %v: i32) {
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// With the pipeline's one value (off), the struct is read from generic
// memory by llc's own lowering, and the pointer store still goes global.
// PIPE-OFF-LABEL: .entry k(
// PIPE-OFF: ld.param.b32
// PIPE-OFF: st.global.b32
