// ptxcc-verify's rules, each at the operation it is about
// (--verify-diagnostics); valid.mlir has a passing counterpart of each.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --ptxcc-verify

// A kernel parameter in local space: no launch can pass one.
// expected-error@+1 {{pointer-to-local-or-generic launch argument: parameter 1 of kernel @local_param points into local memory}}
llvm.func ptx_kernelcc @local_param(%a: !llvm.ptr<1>, %b: !llvm.ptr<5>) {
  llvm.return
}

// -----

// A pointer into an alloca handed to a kernel called from device code,
// through the generic cast and a GEP.
llvm.func ptx_kernelcc @child(%p: !llvm.ptr) {
  llvm.return
}
llvm.func @parent() {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<4 x i32> : (i32) -> !llvm.ptr
  %elem = llvm.getelementptr %slot[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<4 x i32>
  // expected-error@+1 {{pointer-to-local-or-generic launch argument: argument 0 of the call of kernel @child is a pointer into a local slot of @parent}}
  llvm.call @child(%elem) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A device-side launch (what clang emits for <<<>>> in device code): the
// address of a local variable stored into the parameter buffer.
llvm.func @cudaGetParameterBufferV2(!llvm.ptr, !llvm.struct<(i32, i32, i32)>, !llvm.struct<(i32, i32, i32)>, i32) -> !llvm.ptr
llvm.func @cudaLaunchDeviceV2(!llvm.ptr, !llvm.ptr) -> i32
llvm.func ptx_kernelcc @child(%p: !llvm.ptr) {
  llvm.return
}
llvm.func ptx_kernelcc @launcher(%dims: !llvm.struct<(i32, i32, i32)>) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %x = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  %f = llvm.mlir.addressof @child : !llvm.ptr
  %buffer = llvm.call @cudaGetParameterBufferV2(%f, %dims, %dims, %zero) : (!llvm.ptr, !llvm.struct<(i32, i32, i32)>, !llvm.struct<(i32, i32, i32)>, i32) -> !llvm.ptr
  // expected-error@+1 {{pointer-to-local-or-generic launch argument: the pointer stored into a launch's parameter buffer is a pointer into a local slot of @launcher}}
  llvm.store %x, %buffer : !llvm.ptr, !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %r = llvm.call @cudaLaunchDeviceV2(%buffer, %null) : (!llvm.ptr, !llvm.ptr) -> i32
  llvm.return
}

// -----

// cvta.param in a device function, as a ptxcc op and as a cast.
llvm.func @device_cvta(%p: !llvm.ptr<101>) -> !llvm.ptr {
  // expected-error@+1 {{'llvm.addrspacecast' converts a param-space pointer in device function @device_cvta: cvta.param exists only for kernel parameters}}
  %g = llvm.addrspacecast %p : !llvm.ptr<101> to !llvm.ptr
  llvm.return %g : !llvm.ptr
}
llvm.func @device_op(%p: !llvm.ptr<101>) -> !llvm.ptr {
  // expected-error@+1 {{'ptxcc.param_to_generic' converts a param-space pointer in device function @device_op}}
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.return %g : !llvm.ptr
}

// -----

// A byval kernel parameter that lower-struct-args lowered (it reads it
// through its param-space view) used as a generic pointer as well, although
// lower-struct-args recorded opt-byval=true (seed 002's mismatch: a pass
// after it added the use). One with no view at all was left for llc on
// purpose (llvm-opt-after) and is fine.
module attributes {ptxcc.opt_byval = true} {
  // expected-error@+1 {{byval parameter 0 of kernel @left is used through its generic address although lower-struct-args ran with opt-byval=true}}
  llvm.func ptx_kernelcc @left(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr<1>) {
    %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
    %v = llvm.load %p : !llvm.ptr<101> -> i32
    %w = llvm.load %s : !llvm.ptr -> i32
    %sum = llvm.add %v, %w : i32
    llvm.store %sum, %out : i32, !llvm.ptr<1>
    llvm.return
  }
  llvm.func ptx_kernelcc @left_for_llc(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr<1>) {
    %v = llvm.load %s : !llvm.ptr -> i32
    llvm.store %v, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// A variadic kernel.
// expected-error@+1 {{kernel @variadic_kernel is variadic: a PTX .entry has no variadic parameters}}
llvm.func ptx_kernelcc @variadic_kernel(%n: i32, ...) {
  llvm.return
}

// -----

// A musttail call of a variadic function (llc aborts on it).
llvm.func @log(i32, ...)
llvm.func @forward(%n: i32, %x: f64) {
  // expected-error@+1 {{musttail call of variadic @log: PTX has no variadic functions}}
  llvm.call musttail @log(%n, %x) vararg(!llvm.func<void (i32, ...)>) : (i32, f64) -> ()
  llvm.return
}

// -----

// More .param bytes than sm_90 with PTX 7.8 allows.
// expected-error@+1 {{kernel 'big' needs 8192 bytes of .param space, more than the 4096 bytes sm_90, PTX 7.8 allows}}
llvm.func ptx_kernelcc @big(%s: !llvm.ptr {llvm.byval = !llvm.array<2048 x f32>, llvm.align = 4 : i64}) {
  llvm.return
}
