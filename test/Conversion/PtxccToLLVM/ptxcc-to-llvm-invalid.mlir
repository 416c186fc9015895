// convert-ptxcc-to-llvm refuses what would become wrong PTX, at the op's
// location, and changes nothing in that function.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --convert-ptxcc-to-llvm

// cvta.param on a device function's parameter gives an invalid pointer.
llvm.func @device_function(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.param_to_generic' op is only valid in a kernel (ptx_kernelcc or nvvm.kernel)}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.return
}

// -----

// The param-space pointer must come from a byval parameter.
llvm.func ptx_kernelcc @not_byval(%s: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.param_to_global' op converts the param-space view of parameter 0, which is not a byval parameter}}
  %g = "ptxcc.param_to_global"(%p) : (!llvm.ptr<101>) -> !llvm.ptr<1>
  llvm.return
}

// -----

// ... of the enclosing kernel, traceable through GEPs and casts.
llvm.func ptx_kernelcc @untraceable(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}, %m: !llvm.ptr) {
  %q = llvm.load %m : !llvm.ptr -> !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.param_to_generic' op must convert the param-space view (llvm.addrspacecast to !llvm.ptr<101>) of a byval parameter of the enclosing kernel}}
  %g = "ptxcc.param_to_generic"(%q) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func ptx_kernelcc @huge_offset(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @+1 {{'ptxcc.load_param' op offset must be below 32764 (the largest param space), got 4294967296}}
  %v = "ptxcc.load_param"(%p) {offset = 4294967296 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  llvm.return
}

// -----

// Several problems in one function are all reported.
llvm.func @two_problems(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // expected-error @below {{is only valid in a kernel}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  %h = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  // expected-error @above {{is only valid in a kernel}}
  llvm.return
}
