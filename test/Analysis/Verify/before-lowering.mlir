// ptxcc-verify on IR that lower-struct-args has not lowered (no
// ptxcc.opt_byval on the module): a byval kernel parameter read in place is
// what every front end emits, and llc copies it where it must, so it is not
// an error. (It used to be refused as a "pointer-to-local-or-generic launch
// argument", which told the user nothing.) After the pipeline the same kernel
// verifies too.
// RUN: %ptxcc-opt %s --ptxcc-verify 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc-opt %s --ptxcc-pipeline=verify=true 2>&1 | FileCheck %s --check-prefix=PIPELINE --implicit-check-not=error:

// CHECK-LABEL: llvm.func ptx_kernelcc @byval_read_in_place(
// PIPELINE: module attributes {ptxcc.opt_byval = true}
// PIPELINE-LABEL: llvm.func ptx_kernelcc @byval_read_in_place(
llvm.func ptx_kernelcc @byval_read_in_place(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f64)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.call @escape(%s) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @escape(!llvm.ptr)
