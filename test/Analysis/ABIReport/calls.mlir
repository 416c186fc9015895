// Call sequences in the report (seed 003 "Lowering Calls"): for each call,
// the .param declarations, the st.param stores after value-part scheduling,
// retval0 and the loads from it, the call line and, for an indirect call,
// the .callprototype. Registers print as `_`.
// RUN: %ptxcc-opt --ptxcc-abi-report=ptx=80 %s -o %t.out 2>&1 | FileCheck %s
//
// The same sequences, line for line, as llc prints them (the Rust oracle in
// conversions/src/abi/oracle.rs compares 57 call shapes the same way).
// RUN: %ptxcc-opt --ptxcc-abi-report=ptx=80 %s -o %t.out 2>&1 | python3 %S/Inputs/callseqs.py --report > %t.report
// RUN: %ptxcc-opt %s | %to-llvmir | %llc-sm90 | python3 %S/Inputs/callseqs.py --ptx > %t.llc
// RUN: diff %t.report %t.llc
// RUN: FileCheck %s --input-file=%t.llc --check-prefix=COUNT
// COUNT-COUNT-5: callseq
// COUNT-NOT: callseq

llvm.func @take(!llvm.struct<(f32, f32, f32)>, i8, f16) -> !llvm.struct<(i8, i64)>
llvm.func @copy(!llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>, llvm.align = 16 : i64})
llvm.func @log(i32, ...) -> i32

// A struct (three b32 stores), an i8 widened to a b32 store, an f16 in a
// 2-byte array; a { i8, i64 } result read by its two parts.
// CHECK-LABEL: // ptxcc-abi-report @direct:
// CHECK:      //  call take: callseq 0
// CHECK-NEXT: //    .param .align 4 .b8 param0[12];
// CHECK-NEXT: //    .param .b32 param1;
// CHECK-NEXT: //    .param .align 2 .b8 param2[2];
// CHECK-NEXT: //    .param .align 8 .b8 retval0[16];
// CHECK-NEXT: //    st.param.b32 [param0], _;
// CHECK-NEXT: //    st.param.b32 [param0+4], _;
// CHECK-NEXT: //    st.param.b32 [param0+8], _;
// CHECK-NEXT: //    st.param.b32 [param1], _;
// CHECK-NEXT: //    st.param.b16 [param2], _;
// CHECK-NEXT: //    call.uni (retval0), take, (param0, param1, param2);
// CHECK-NEXT: //    ld.param.b8 _, [retval0];
// CHECK-NEXT: //    ld.param.b64 _, [retval0+8];
llvm.func @direct(%s: !llvm.struct<(f32, f32, f32)>, %c: i8, %h: f16) -> !llvm.struct<(i8, i64)> {
  %r = llvm.call @take(%s, %c, %h) : (!llvm.struct<(f32, f32, f32)>, i8, f16) -> !llvm.struct<(i8, i64)>
  llvm.return %r : !llvm.struct<(i8, i64)>
}

// A byval argument is copied into its .param by parts, merged under the
// 16-byte alignment into one v4 store.
// CHECK-LABEL: // ptxcc-abi-report @byval:
// CHECK:      //  call copy: callseq 1
// CHECK-NEXT: //    .param .align 16 .b8 param0[16];
// CHECK-NEXT: //    st.param.v4.b32 [param0], {_, _, _, _};
// CHECK-NEXT: //    call.uni copy, (param0);
llvm.func @byval(%p: !llvm.ptr) {
  llvm.call @copy(%p) {arg_attrs = [{llvm.byval = !llvm.struct<(f32, f32, f32, f32)>, llvm.align = 16 : i64}]} : (!llvm.ptr) -> ()
  llvm.return
}

// An indirect call declares its prototype and calls through a register;
// the i16 is widened to .b32; the { f64, f64 } is only 8-byte aligned, so
// its doubles are not merged into a v2.
// CHECK-LABEL: // ptxcc-abi-report @indirect:
// CHECK:      //  call through a pointer: callseq 2
// CHECK-NEXT: //    .param .b32 param0;
// CHECK-NEXT: //    .param .align 8 .b8 param1[16];
// CHECK-NEXT: //    .param .b64 retval0;
// CHECK-NEXT: //    st.param.b32 [param0], _;
// CHECK-NEXT: //    st.param.b64 [param1], _;
// CHECK-NEXT: //    st.param.b64 [param1+8], _;
// CHECK-NEXT: //    prototype_2 : .callprototype (.param .b64 _) _ (.param .b32 _, .param .align 8 .b8 _[16]);
// CHECK-NEXT: //    call (retval0), %callee, (param0, param1), prototype_2;
// CHECK-NEXT: //    ld.param.b64 _, [retval0];
llvm.func @indirect(%f: !llvm.ptr, %x: i16, %d: !llvm.struct<(f64, f64)>) -> f64 {
  %r = llvm.call %f(%x, %d) : !llvm.ptr, (i16, !llvm.struct<(f64, f64)>) -> f64
  llvm.return %r : f64
}

// A variadic call passes its variadic arguments through a local buffer
// whose address is one more .b64 parameter.
// CHECK-LABEL: // ptxcc-abi-report @variadic:
// CHECK:      //  call log: callseq 3
// CHECK-NEXT: //    .param .b32 param0;
// CHECK-NEXT: //    .param .b64 param1;
// CHECK-NEXT: //    .param .b32 retval0;
// CHECK:      //    call.uni (retval0), log, (param0, param1);
llvm.func @variadic(%x: i32, %d: f64) -> i32 {
  %r = llvm.call @log(%x, %d, %x) vararg(!llvm.func<i32 (i32, ...)>) : (i32, f64, i32) -> i32
  llvm.return %r : i32
}

// A kernel passes its byval parameter on: the copy comes from param space.
// CHECK-LABEL: // ptxcc-abi-report @kernel:
// CHECK:      //  call copy: callseq 4
// CHECK-NEXT: //    .param .align 16 .b8 param0[16];
// CHECK-NEXT: //    st.param.v4.b32 [param0], {_, _, _, _};
llvm.func ptx_kernelcc @kernel(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f32, f32, f32, f32)>, llvm.align = 16 : i64}) {
  llvm.call @copy(%s) {arg_attrs = [{llvm.byval = !llvm.struct<(f32, f32, f32, f32)>, llvm.align = 16 : i64}]} : (!llvm.ptr) -> ()
  llvm.return
}
