// lower-struct-args errors: each at the location of what causes it, and the
// kernel is left unchanged.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --lower-struct-args

// A struct that must be copied (it is written) is larger than
// max-byval-size: seed 001's "huge 'byval' arguments are unsupported", at
// the parameter, naming the write that needs the copy.
// expected-error@+1 {{huge 'byval' arguments are unsupported: parameter 0 (8192 bytes) needs a local copy because it is written by 'llvm.store'}}
llvm.func ptx_kernelcc @huge_copy(%s: !llvm.ptr {llvm.byval = !llvm.array<2048 x i32>, llvm.align = 4 : i64}, %x: i32) attributes {target_features = #llvm.target_features<["+ptx81"]>} {
  llvm.store %x, %s : i32, !llvm.ptr
  llvm.return
}

// -----

// Reading a large struct from param space needs no copy: no error.
llvm.func ptx_kernelcc @huge_read(%s: !llvm.ptr {llvm.byval = !llvm.array<2048 x i32>, llvm.align = 4 : i64}, %out: !llvm.ptr) attributes {target_features = #llvm.target_features<["+ptx81"]>} {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// The kernel's parameters exceed the param space of the target (4096 bytes
// before PTX 8.1; sm_90 alone means PTX 7.8, as in llc), even though the
// struct is only read.
// expected-error@+1 {{kernel 'too_big' needs 5008 bytes of .param space, more than the 4096 bytes sm_90, PTX 7.8 allows (PTX 8.1 on sm_70 or newer allows 32764)}}
llvm.func ptx_kernelcc @too_big(%s: !llvm.ptr {llvm.byval = !llvm.array<1250 x i32>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Writing through a grid constant breaks its contract.
llvm.func ptx_kernelcc @write_grid_constant(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}, %x: i32) attributes {nvvm.kernel} {
  // expected-error@+1 {{parameter 0 is an nvvm.grid_constant, but it is written by 'llvm.store'; a grid constant is read-only}}
  llvm.store %x, %s : i32, !llvm.ptr
  llvm.return
}

// -----

// A byval type the ABI has no layout for.
// expected-error@+1 {{cannot lower this byval parameter}}
llvm.func ptx_kernelcc @no_layout(%s: !llvm.ptr {llvm.byval = !llvm.struct<"opaque", opaque>}) {
  llvm.return
}

// -----

// A struct that needs a copy but is also read through an explicit cast to
// param space: the copy cannot follow that cast.
llvm.func ptx_kernelcc @copy_and_param_cast(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %x: i32, %out: !llvm.ptr) {
  llvm.store %x, %s : i32, !llvm.ptr
  // expected-error@+1 {{parameter 0 needs a local copy (it is written by 'llvm.store'), but this cast reads it in param space, which the copy cannot follow}}
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %v = llvm.load %p : !llvm.ptr<101> -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Every problem of a kernel is reported, not only the first.
llvm.func ptx_kernelcc @two_problems(%a: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %x: i32) attributes {nvvm.kernel} {
  // expected-error@+1 {{a grid constant is read-only}}
  llvm.store %x, %a : i32, !llvm.ptr
  llvm.store %x, %b : i32, !llvm.ptr
  // expected-error@+1 {{the copy cannot follow}}
  %p = llvm.addrspacecast %b : !llvm.ptr to !llvm.ptr<101>
  llvm.return
}

// -----

// Seed 001's 16 KB struct in a device function that writes it: the copy is
// above max-byval-size.
llvm.func @huge_device(%s: !llvm.ptr {llvm.byval = !llvm.array<4096 x i32>}, %x: i32) {
  // expected-error@-1 {{huge 'byval' arguments are unsupported: parameter 0 (16384 bytes) needs a local copy because it is written by 'llvm.store'}}
  llvm.store %x, %s : i32, !llvm.ptr
  llvm.return
}

// -----

// Only read, the same struct needs no copy: llc reads it with ld.param.
llvm.func @huge_device_read(%s: !llvm.ptr {llvm.byval = !llvm.array<4096 x i32>}, %out: !llvm.ptr) {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A variadic device function keeps its signature, with a remark.
// expected-remark@+1 {{lower-struct-args leaves the variadic function '@sum' as it is}}
llvm.func internal @sum(%n: i32, ...) -> i32 {
  llvm.return %n : i32
}
llvm.func @call_sum(%v: !llvm.struct<(f32, f32)>) -> i32 {
  %n = llvm.mlir.constant(1 : i32) : i32
  %r = llvm.call @sum(%n, %v) vararg(!llvm.func<i32 (i32, ...)>) : (i32, !llvm.struct<(f32, f32)>) -> i32
  llvm.return %r : i32
}
