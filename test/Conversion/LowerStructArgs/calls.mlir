// lower-struct-args at call sites: seed 003's decision table for an
// argument that crosses a call (kernel's param K, byval B, grid constant G,
// direct callee D), one case per row, and kernel parameters flattened on
// request (flatten-kernel-args).
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=chip=sm_60 | FileCheck %s --check-prefix=SM60
// RUN: %ptxcc-opt %s --split-input-file '--lower-struct-args=flatten-kernel-args=true flatten-always=true' \
// RUN:   | FileCheck %s --check-prefix=KERNELS
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX

// K && B && G: a kernel forwards its byval Mat4 to a device function's byval
// parameter. The call's copy is made from param space: the parameter's
// generic address (cvta.param), the parameter a grid constant, no local copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @forward_mat4(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, nvvm.grid_constant}
// CHECK-NEXT: %[[P:.*]] = llvm.addrspacecast %[[M]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:.*]] = "ptxcc.param_to_generic"(%[[P]])
// CHECK-NEXT: llvm.call @det(%[[G]])
// K && B && !G: without cvta.param (sm_60) the kernel's local copy is what
// the call copies from.
// SM60-LABEL: llvm.func ptx_kernelcc @forward_mat4(
// SM60: %[[SLOT:.*]] = llvm.alloca
// SM60: "ptxcc.copy_param"(%{{.*}}, %[[SLOT]])
// SM60: llvm.call @det(%[[SLOT]])
// llc then copies param space to param space: ld.param, st.param.
// PTX-LABEL: .entry forward_mat4(
// PTX-NOT: .local
// PTX: .param .align 16 .b8 param0[64];
// PTX: ld.param.b32 %r{{[0-9]+}}, [forward_mat4_param_0+60];
// PTX: st.param.v4.b32 [param0+48],
// PTX-NOT: .local
// PTX: call.uni (retval0), det,
llvm.func internal @det(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32 {
  %g = llvm.getelementptr %m[60] : (!llvm.ptr) -> !llvm.ptr, i8
  %a = llvm.load %g {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %a : f32
}
llvm.func ptx_kernelcc @forward_mat4(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %r = llvm.call @det(%m) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32
  llvm.store %r, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// !K && B: a device function forwards its own byval parameter: llc copies
// it into the call's .param (move-param); ptxcc leaves the call alone.
// CHECK-LABEL: llvm.func internal @relay(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.byval
// CHECK-NEXT: llvm.call @det2(%[[M]])
llvm.func internal @det2(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32 {
  %a = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %a : f32
}
llvm.func internal @relay(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32 {
  %r = llvm.call @det2(%m) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32
  llvm.return %r : f32
}
llvm.func @relay_user(%m: !llvm.ptr) -> f32 {
  %r = llvm.call @relay(%m) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32
  llvm.return %r : f32
}

// -----

// !K && B, written: a device function writes its byval Mat4 (64 bytes, over
// flatten-threshold) and passes it on. Its callee takes the Mat4 by value
// (the same .param .b8[64]), so the caller's copy, which
// promote-local-arrays makes in a slot SROA promotes, goes to registers
// (issue 31's scale; nvcc's code). A callee whose callers pass only a
// kernel's parameter (@det, above) keeps the byval pointer: passing a
// value frees nothing there.
// CHECK-LABEL: llvm.func internal @det3(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.struct<"Mat4", (array<16 x f32>)>) -> f32
// CHECK-NEXT: llvm.extractvalue %[[M]][0, 5]
// CHECK-LABEL: llvm.func internal @scale3(
// CHECK-SAME: %[[P:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.byval
// CHECK: llvm.store %{{.*}}, %[[P]]
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> !llvm.struct<"Mat4", (array<16 x f32>)>
// CHECK-NEXT: llvm.call @det3(%[[V]])
llvm.func internal @det3(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32 {
  %g = llvm.getelementptr %m[20] : (!llvm.ptr) -> !llvm.ptr, i8
  %a = llvm.load %g {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %a : f32
}
llvm.func internal @scale3(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}, %s: f32) -> f32 {
  %a = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> f32
  %b = llvm.fmul %a, %s : f32
  llvm.store %b, %m {alignment = 4 : i64} : f32, !llvm.ptr
  %r = llvm.call @det3(%m) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32
  llvm.return %r : f32
}
llvm.func @scale3_user(%m: !llvm.ptr, %s: f32) -> f32 {
  %r = llvm.call @scale3(%m, %s) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}, f32) -> f32
  llvm.return %r : f32
}

// -----

// !B && D: the direct callee's prototype. A kernel passes its byval Vec3,
// which the callee only reads: the struct's value crosses (three .f32
// parameters would take a st.param more than llc's .v2 + .b32), read from
// param space: no copy, no cast.
// CHECK-LABEL: llvm.func internal @length2(
// CHECK-SAME: %{{[^:]*}}: !llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// CHECK-LABEL: llvm.func ptx_kernelcc @pass_vec3(
// CHECK-SAME: %[[V:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>}
// CHECK-NEXT: %[[P:.*]] = llvm.addrspacecast %[[V]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[S:.*]] = "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 0 : i64} : (!llvm.ptr<101>) -> !llvm.struct<"Vec3", (f32, f32, f32)>
// CHECK-NEXT: llvm.call @length2(%[[S]]) : (!llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// With flatten-kernel-args (and seed 000's flatten-always) the kernel's own
// parameter is flattened too (the launch ABI changes: three .f32
// parameters).
// KERNELS-LABEL: llvm.func ptx_kernelcc @pass_vec3(
// KERNELS-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[Z:[^:]*]]: f32, %{{[^:]*}}: !llvm.ptr)
// KERNELS-NEXT: llvm.call @length2(%[[X]], %[[Y]], %[[Z]]) : (f32, f32, f32) -> f32
// PTX-LABEL: .entry pass_vec3(
// PTX-NOT: .local
// PTX: ld.param.b32 %r{{[0-9]+}}, [pass_vec3_param_0+8];
// PTX-NOT: .local
// PTX: st.param.v2.b32 [param0], {%r{{[0-9]+}}, %r{{[0-9]+}}};
// PTX-NEXT: st.param.b32 [param0+8], %r{{[0-9]+}};
// PTX: call.uni (retval0), length2,
llvm.func internal @length2(%v: !llvm.ptr {llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>, llvm.align = 4 : i64}) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32
  %py = llvm.getelementptr %v[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %y = llvm.load %py {alignment = 4 : i64} : !llvm.ptr -> f32
  %pz = llvm.getelementptr %v[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %pz {alignment = 4 : i64} : !llvm.ptr -> f32
  %a = llvm.fmul %x, %x : f32
  %b = llvm.fmul %y, %y : f32
  %c = llvm.fmul %z, %z : f32
  %s = llvm.fadd %a, %b : f32
  %t = llvm.fadd %s, %c : f32
  llvm.return %t : f32
}
llvm.func ptx_kernelcc @pass_vec3(%v: !llvm.ptr {llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %r = llvm.call @length2(%v) : (!llvm.ptr {llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>, llvm.align = 4 : i64}) -> f32
  llvm.store %r, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// !B && !D: an indirect call keeps the original prototype, and so does the
// function whose address it calls (no nvptx-libcall-callee wrapper needed).
// CHECK-LABEL: llvm.func internal @target(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @indirect(
// CHECK: llvm.call %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.struct<(f32, f32)>) -> f32
llvm.func internal @target(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  llvm.return %x : f32
}
llvm.func @indirect(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %f = llvm.mlir.addressof @target : !llvm.ptr
  %r = llvm.call %f(%v) : !llvm.ptr, (!llvm.struct<(f32, f32)>) -> f32
  llvm.return %r : f32
}
