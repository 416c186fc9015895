// The passing counterparts of invalid.mlir: ptxcc-verify accepts each and
// leaves the IR as it was.
// RUN: %ptxcc-opt %s --ptxcc-verify 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %ptxcc-opt %s > %t.plain
// RUN: %ptxcc-opt %s --ptxcc-verify | diff %t.plain -

module attributes {ptxcc.opt_byval = true} {
  // Global, generic and shared pointer parameters.
  // CHECK-LABEL: llvm.func ptx_kernelcc @pointer_params(
  llvm.func ptx_kernelcc @pointer_params(%a: !llvm.ptr<1>, %b: !llvm.ptr, %c: !llvm.ptr<3>) {
    llvm.return
  }

  // A kernel launched from device code with a global pointer, directly and
  // through a parameter buffer; a local slot used only locally.
  llvm.func @cudaGetParameterBufferV2(!llvm.ptr, !llvm.struct<(i32, i32, i32)>, !llvm.struct<(i32, i32, i32)>, i32) -> !llvm.ptr
  llvm.func ptx_kernelcc @child(%p: !llvm.ptr) {
    llvm.return
  }
  // CHECK-LABEL: llvm.func ptx_kernelcc @launcher(
  llvm.func ptx_kernelcc @launcher(%g: !llvm.ptr, %dims: !llvm.struct<(i32, i32, i32)>) {
    %one = llvm.mlir.constant(1 : i32) : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %x = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
    llvm.store %zero, %x : i32, !llvm.ptr
    %f = llvm.mlir.addressof @child : !llvm.ptr
    %buffer = llvm.call @cudaGetParameterBufferV2(%f, %dims, %dims, %zero) : (!llvm.ptr, !llvm.struct<(i32, i32, i32)>, !llvm.struct<(i32, i32, i32)>, i32) -> !llvm.ptr
    llvm.store %g, %buffer : !llvm.ptr, !llvm.ptr
    llvm.call @child(%g) : (!llvm.ptr) -> ()
    llvm.return
  }

  // cvta.param of a kernel's own parameter (a grid constant), and the
  // byval parameter used only through its param-space cast (what
  // lower-struct-args makes with opt-byval on).
  // CHECK-LABEL: llvm.func ptx_kernelcc @grid_constant(
  llvm.func ptx_kernelcc @grid_constant(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64, nvvm.grid_constant}) attributes {nvvm.kernel} {
    %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
    %g = llvm.addrspacecast %p : !llvm.ptr<101> to !llvm.ptr
    llvm.call @reads(%g) : (!llvm.ptr) -> ()
    llvm.return
  }
  llvm.func @reads(!llvm.ptr {llvm.readonly, llvm.nocapture})

  // Variadic device functions and calls that are not musttail.
  // CHECK-LABEL: llvm.func @log(
  llvm.func @log(%n: i32, ...) {
    llvm.return
  }
  // CHECK-LABEL: llvm.func @calls_log(
  llvm.func @calls_log(%n: i32, %x: f64) {
    llvm.call @log(%n, %x) vararg(!llvm.func<void (i32, ...)>) : (i32, f64) -> ()
    llvm.call tail @log(%n, %x) vararg(!llvm.func<void (i32, ...)>) : (i32, f64) -> ()
    llvm.return
  }
}

// With opt-byval off, a generic byval pointer is what lower-struct-args
// leaves.
module attributes {ptxcc.opt_byval = false} {
  // CHECK-LABEL: llvm.func ptx_kernelcc @generic_byval(
  llvm.func ptx_kernelcc @generic_byval(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr<1>) {
    %v = llvm.load %s : !llvm.ptr -> i32
    llvm.store %v, %out : i32, !llvm.ptr<1>
    llvm.return
  }
}
