// The opt-byval disagreement in --verify-diagnostics form, the other
// direction: lower-struct-args recorded false, memory-space-opt has true.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --memory-space-opt=opt-byval=true

module attributes {ptxcc.opt_byval = false} {
  // expected-error@+1 {{option 'opt-byval' disagrees between passes: lower-struct-args ran with opt-byval=false but memory-space-opt has opt-byval=true}}
  llvm.func ptx_kernelcc @recorded_false(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}) {
    llvm.return
  }
}

// -----

// Agreement: no error.
module attributes {ptxcc.opt_byval = true} {
  llvm.func ptx_kernelcc @recorded_true(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}) {
    llvm.return
  }
}

// -----

// Nothing recorded (lower-struct-args did not run): nothing to compare.
llvm.func ptx_kernelcc @unrecorded(%s: !llvm.ptr {llvm.byval = i32, llvm.align = 4 : i64}) {
  llvm.return
}
