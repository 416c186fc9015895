// The report: the PTX header, a table of parameters (LLVM type, class,
// .param size and alignment, flattened leaves, the ld.param/st.param
// accesses llc makes) and a kernel's param bytes against the limit.
// RUN: %ptxcc-opt --ptxcc-abi-report %s 2>&1 >/dev/null | FileCheck %s
// The IR is unchanged: the output equals a plain round trip.
// RUN: %ptxcc-opt %s > %t.plain
// RUN: %ptxcc-opt --ptxcc-abi-report %s 2>/dev/null | diff %t.plain -

// Seed 002's struct read by a kernel: byval, leaves at 0, 8 and 12..24;
// a byval parameter is read where it is used ("as used"), the others by
// their parts.
// CHECK-LABEL: // ptxcc-abi-report @k: kernel, sm_90, PTX 7.8
// CHECK-NEXT: .visible .entry k(
// CHECK-NEXT: {{^}}	.param .align 8 .b8 k_param_0[32],
// CHECK-NEXT: {{^}}	.param .u64 .ptr .global .align 1 k_param_1,
// CHECK-NEXT: {{^}}	.param .u32 k_param_2
// CHECK-NEXT: {{^}})
// CHECK-NEXT: //  arg  llvm type                        class   size  align  leaves (offset:type)                       accesses  PTX declaration
// CHECK-NEXT: //  0    byval { double, i8, [4 x i32] }  byval   32    8      0:double 8:i8 12:i32 16:i32 20:i32 24:i32  as used   .param .align 8 .b8 k_param_0[32]
// CHECK-NEXT: //  1    ptr addrspace(1)                 scalar  8     8      -                                          .b64 +0   .param .u64 .ptr .global .align 1 k_param_1
// CHECK-NEXT: //  2    i32                              scalar  4     4      -                                          .b32 +0   .param .u32 k_param_2
// CHECK-NEXT: //  param space: 44 of 4096 bytes
llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64},
                          %out: !llvm.ptr<1>, %n: i32) {
  llvm.return
}

// A local device function: alignment raised to 16, so the float triple
// is read as v2 + b32; i8 is promoted to .b32 but read as a byte; a
// 24-byte result is above sret-threshold (class indirect).
// CHECK-LABEL: // ptxcc-abi-report @dev: device function, sm_90, PTX 7.8
// CHECK-NEXT: .func  (.param .align 16 .b8 func_retval0[24]) dev(
// CHECK-NEXT: {{^}}	.param .align 16 .b8 dev_param_0[12],
// CHECK-NEXT: {{^}}	.param .b32 dev_param_1,
// CHECK-NEXT: {{^}}	.param .align 16 .b8 dev_param_2[16]
// CHECK-NEXT: {{^}})
// CHECK-NEXT: //  arg  llvm type
// CHECK-NEXT: //  0    { float, float, float }  flatten   12    16     0:float 4:float 8:float       .v2.b32 +0, .b32 +8
// CHECK-NEXT: //  1    i8                       scalar    4     4      -                             .b8 +0
// CHECK-NEXT: //  2    <8 x half>               byval     16    16     -                             .v4.b32 +0
// CHECK-NEXT: //  ret  { double, double, i32 }  indirect  24    16     0:double 8:double 16:i32      .v2.b64 +0, .b32 +16
// CHECK-NOT: param space
llvm.func internal @dev(%v: !llvm.struct<(f32, f32, f32)>, %b: i8, %h: vector<8xf16>) -> !llvm.struct<(f64, f64, i32)> {
  %0 = llvm.mlir.zero : !llvm.struct<(f64, f64, i32)>
  llvm.return %0 : !llvm.struct<(f64, f64, i32)>
}

// A packed struct: every field is read byte by byte.
// CHECK-LABEL: // ptxcc-abi-report @packed: device function
// CHECK: //  0    <{ i8, i32, i16 }>  flatten  7     1      0:i8 1:i32 5:i16      .b8 +0, .b8 +1, .b8 +2, .b8 +3, .b8 +4, .b8 +5, .b8 +6
llvm.func @packed(%p: !llvm.struct<packed (i8, i32, i16)>) {
  llvm.return
}

// A declaration prints as llc's forward declaration.
// CHECK-LABEL: // ptxcc-abi-report @ext: device function, sm_90, PTX 7.8, declaration (llc prints it only if it is used)
// CHECK-NEXT: .extern .func  (.param .b32 func_retval0) ext
// CHECK-NEXT: (
// CHECK-NEXT: {{^}}	.param .b64 ext_param_0
// CHECK-NEXT: )
// CHECK-NEXT: ;
llvm.func @ext(!llvm.ptr) -> i16

// The function's own target wins over the pass option.
// CHECK-LABEL: // ptxcc-abi-report @newer: kernel, sm_100, PTX 8.8
// CHECK: //  param space: 0 of 32764 bytes
llvm.func ptx_kernelcc @newer() attributes {target_cpu = "sm_100", target_features = #llvm.target_features<["+ptx88"]>} {
  llvm.return
}
