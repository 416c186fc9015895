// The param-space check: a 4800-byte kernel parameter does not fit the 4096
// bytes of PTX 8.0 (nor of sm_60), and fits the 32764 bytes of PTX 8.1 on
// sm_90. Types llc cannot pass are errors at the function.
// RUN: %ptxcc-opt --ptxcc-abi-report=ptx=80 %s -split-input-file -verify-diagnostics -o %t.out 2>/dev/null
// RUN: not %ptxcc-opt --ptxcc-abi-report=ptx=81 %s -split-input-file -o %t.out 2>&1 | FileCheck %s --check-prefix=PTX81

// PTX81-NOT: error
// PTX81: param space: 4800 of 32764 bytes
// expected-error @below {{kernel 'big' needs 4800 bytes of .param space, more than the 4096 bytes sm_90, PTX 8.0 allows (PTX 8.1 on sm_70 or newer allows 32764)}}
llvm.func ptx_kernelcc @big(%s: !llvm.ptr {llvm.byval = !llvm.array<1200 x f32>, llvm.align = 4 : i64}) {
  llvm.return
}

// -----

// Two parameters together over the limit, each under it.
// PTX81-NOT: error
// PTX81: param space: 4104 of 32764 bytes
// expected-error @below {{kernel 'two' needs 4104 bytes of .param space}}
llvm.func ptx_kernelcc @two(%a: !llvm.ptr {llvm.byval = !llvm.array<512 x f64>}, %n: i64) {
  llvm.return
}

// -----

// The function's own chip (no chip option is given); the PTX version is the
// option's, which wins over the function's +ptx81 as llc's -mattr does. PTX
// 8.1 would not be enough below sm_70 either.
// PTX81: param space: 4800 of 4096 bytes
// expected-error @below {{more than the 4096 bytes sm_60, PTX 8.0 allows}}
llvm.func ptx_kernelcc @old(%s: !llvm.ptr {llvm.byval = !llvm.array<1200 x f32>}) attributes {target_cpu = "sm_60", target_features = #llvm.target_features<["+ptx81"]>} {
  llvm.return
}

// -----

// expected-error @below {{@empty: type '{}' has no PTX ABI: llc rejects empty parameter types}}
llvm.func @empty(%e: !llvm.struct<()>) {
  llvm.return
}

// -----

// expected-error @below {{@long_double: type 'x86_fp80' has no PTX ABI: NVPTX has no x86_fp80}}
llvm.func @long_double(%x: f80) {
  llvm.return
}

// -----

// expected-error @below {{@misaligned: parameter 0: llvm.align = 3 is not a positive power of two}}
llvm.func @misaligned(%p: !llvm.ptr {llvm.align = 3 : i64}) {
  llvm.return
}

// -----

// expected-error @below {{@gpu: unknown chip 'gfx90a'}}
llvm.func @gpu() attributes {target_cpu = "gfx90a"} {
  llvm.return
}

// -----

// The PTX version is the option's (8.0 here), whatever the function says:
// llc compiles for its -mattr and ignores the functions' features.
// expected-error @below {{@too_old: PTX 8.0 does not support 'sm_100': it needs PTX 8.6 or later}}
llvm.func @too_old() attributes {target_cpu = "sm_100", target_features = #llvm.target_features<["+ptx70"]>} {
  llvm.return
}

// -----

// Issue 29: a call passing a 64 MB aggregate by value. The report listed a
// part per eight bytes (8 million st.param lines, 1.8 GB of memory), and
// larger values exhausted memory; parts are counted before they are listed.
llvm.func @huge_callee(%a: !llvm.array<67108864 x i8>) {
  llvm.return
}
// expected-error @below {{@huge_caller: the value has more than 65528 register parts: too large to pass by value in param space}}
llvm.func @huge_caller(%p: !llvm.ptr) {
  %a = llvm.load %p : !llvm.ptr -> !llvm.array<67108864 x i8>
  llvm.call @huge_callee(%a) : (!llvm.array<67108864 x i8>) -> ()
  llvm.return
}
