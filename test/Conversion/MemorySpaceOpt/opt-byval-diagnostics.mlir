// The opt-byval disagreement in --verify-diagnostics form: the value
// lower-struct-args recorded on the module (ptxcc.opt_byval) is true,
// memory-space-opt has false (the other direction: opt-byval-recorded-off.mlir).
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --memory-space-opt=opt-byval=false
// RUN: not %ptxcc-opt %s --split-input-file --memory-space-opt=opt-byval=false 2>&1 | FileCheck %s

module attributes {ptxcc.opt_byval = true} {
  // expected-error@+1 {{option 'opt-byval' disagrees between passes: lower-struct-args ran with opt-byval=true but memory-space-opt has opt-byval=false}}
  llvm.func ptx_kernelcc @recorded_true(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}) {
    llvm.return
  }
}

// -----

// Agreement: no error, and the byval pointer is left generic.
// CHECK-LABEL: llvm.func ptx_kernelcc @recorded_false(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
module attributes {ptxcc.opt_byval = false} {
  llvm.func ptx_kernelcc @recorded_false(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}, %out: !llvm.ptr) {
    %v = llvm.load %s : !llvm.ptr -> i32
    llvm.store %v, %out : i32, !llvm.ptr
    llvm.return
  }
}

// -----

// A device function that takes a param-space pointer is affected too.
module attributes {ptxcc.opt_byval = true} {
  // expected-error@+1 {{lower-struct-args ran with opt-byval=true but memory-space-opt has opt-byval=false}}
  llvm.func @param_pointer(%p: !llvm.ptr<101>) {
    llvm.return
  }
}
