// A param-space cast that convert-ptxcc-to-llvm refuses is refused by
// memory-space-opt too, before it folds anything: the pipeline used to fold
// `param_to_generic` of a plain (not byval) kernel pointer into a load
// through a global pointer and exit 0.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --ptxcc-pipeline
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --memory-space-opt
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --convert-ptxcc-to-llvm

llvm.func ptx_kernelcc @not_byval(%s: !llvm.ptr, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.param_to_generic' op converts the param-space view of parameter 0, which is not a byval parameter}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  %v = llvm.load %g : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @device(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.param_to_generic' op is only valid in a kernel}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  %v = llvm.load %g : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}
