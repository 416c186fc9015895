// lower-struct-args on device functions (seed 000): aggregates of at most
// flatten-threshold bytes cross as one parameter per leaf, from an SSA value
// or a byval pointer, where that takes no more .param accesses than the
// aggregate's own .param (llc's .v2/.v4 parts); else an SSA aggregate stays
// and a byval pointer the callee only reads passes the aggregate's value
// (flatten-always=true: seed 000's rule, flattened regardless); larger byval
// parameters stay byval; an
// aggregate result above sret-threshold becomes an sret pointer when every
// caller stores it whole right after the call. Only functions whose every
// use is a visible direct call change signature, with their call sites.
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file '--lower-struct-args=flatten-threshold=64 vector-threshold=8 flatten-always=true' \
// RUN:   | FileCheck %s --check-prefix=RAISED
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=flatten-always=true | FileCheck %s --check-prefix=SEED
// The whole pipeline gives valid PTX:
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 > /dev/null

// Seed 000's add: scalars cross as they are.
// CHECK-LABEL: llvm.func internal @add(%{{.*}}: i32, %{{.*}}: i32) -> i32
// CHECK-LABEL: llvm.func @call_add(
// CHECK: llvm.call @add(%[[X:.*]], %[[X]]) : (i32, i32) -> i32
llvm.func internal @add(%a: i32, %b: i32) -> i32 {
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @call_add(%x: i32) -> i32 {
  %r = llvm.call @add(%x, %x) : (i32, i32) -> i32
  llvm.return %r : i32
}

// -----

// Seed 000's magnitude(Vec3) with the aggregate as an SSA value. llc passes
// the struct in a .param .align 16 .b8 [12] with st.param.v2.f32 +
// st.param.f32; three .f32 parameters would take three: it stays.
// CHECK-LABEL: llvm.func internal @magnitude(
// CHECK-SAME: %{{[^:]*}}: !llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @call_magnitude(
// CHECK-SAME: %[[V:[^:]*]]: !llvm.struct<"Vec3", (f32, f32, f32)>)
// CHECK-NEXT: llvm.call @magnitude(%[[V]]) : (!llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// Seed 000 flattens it.
// SEED-LABEL: llvm.func internal @magnitude(
// SEED-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[Z:[^:]*]]: f32) -> f32
// SEED-NOT: llvm.extractvalue
// SEED: llvm.fmul %[[X]], %[[X]]
// SEED: llvm.fmul %[[Y]], %[[Y]]
// SEED: llvm.fmul %[[Z]], %[[Z]]
// SEED-LABEL: llvm.func @call_magnitude(
// SEED-SAME: %[[V:[^:]*]]: !llvm.struct<"Vec3", (f32, f32, f32)>)
// SEED-NEXT: %[[A:.*]] = llvm.extractvalue %[[V]][0]
// SEED-NEXT: %[[B:.*]] = llvm.extractvalue %[[V]][1]
// SEED-NEXT: %[[C:.*]] = llvm.extractvalue %[[V]][2]
// SEED-NEXT: llvm.call @magnitude(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
llvm.func internal @magnitude(%v: !llvm.struct<"Vec3", (f32, f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<"Vec3", (f32, f32, f32)>
  %y = llvm.extractvalue %v[1] : !llvm.struct<"Vec3", (f32, f32, f32)>
  %z = llvm.extractvalue %v[2] : !llvm.struct<"Vec3", (f32, f32, f32)>
  %xx = llvm.fmul %x, %x : f32
  %yy = llvm.fmul %y, %y : f32
  %zz = llvm.fmul %z, %z : f32
  %s = llvm.fadd %xx, %yy : f32
  %t = llvm.fadd %s, %zz : f32
  llvm.return %t : f32
}
llvm.func @call_magnitude(%v: !llvm.struct<"Vec3", (f32, f32, f32)>) -> f32 {
  %r = llvm.call @magnitude(%v) : (!llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
  llvm.return %r : f32
}

// -----

// The same as clang passes it: a byval pointer, from a slot of the caller.
// The callee only reads leaves, so the slot can go; the aggregate's value
// crosses (the same .param as the byval, llc's st.param traffic), its
// leaves are extractvalues in the callee, and the caller loads the value
// from its slot (llc's SROA then forwards the stored fields).
// CHECK-LABEL: llvm.func internal @magnitude_byval(
// CHECK-SAME: %[[V:[^:]*]]: !llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// CHECK-NEXT: %[[X:.*]] = llvm.extractvalue %[[V]][0]
// CHECK-NEXT: %[[Y:.*]] = llvm.extractvalue %[[V]][1]
// CHECK-NEXT: %[[Z:.*]] = llvm.extractvalue %[[V]][2]
// CHECK-NEXT: %[[S:.*]] = llvm.fadd %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[T:.*]] = llvm.fadd %[[S]], %[[Z]] : f32
// CHECK-NEXT: llvm.return %[[T]] : f32
// CHECK-LABEL: llvm.func @call_magnitude_byval(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[VALUE:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr -> !llvm.struct<"Vec3", (f32, f32, f32)>
// CHECK-NEXT: llvm.call @magnitude_byval(%[[VALUE]]) : (!llvm.struct<"Vec3", (f32, f32, f32)>) -> f32
// Seed 000: loads of exactly one leaf read the leaf parameter, and the
// caller loads the leaves from its memory.
// SEED-LABEL: llvm.func internal @magnitude_byval(
// SEED-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[Z:[^:]*]]: f32) -> f32
// SEED-NEXT: %[[S:.*]] = llvm.fadd %[[X]], %[[Y]] : f32
// SEED-NEXT: %[[T:.*]] = llvm.fadd %[[S]], %[[Z]] : f32
// SEED-NEXT: llvm.return %[[T]] : f32
// SEED-LABEL: llvm.func @call_magnitude_byval(
// SEED: %[[SLOT:.*]] = llvm.alloca
// SEED: %[[A:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr -> f32
// SEED-NEXT: %[[PB:.*]] = llvm.getelementptr %[[SLOT]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// SEED-NEXT: %[[B:.*]] = llvm.load %[[PB]] {alignment = 4 : i64} : !llvm.ptr -> f32
// SEED-NEXT: %[[PC:.*]] = llvm.getelementptr %[[SLOT]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// SEED-NEXT: %[[C:.*]] = llvm.load %[[PC]] {alignment = 4 : i64} : !llvm.ptr -> f32
// SEED-NEXT: llvm.call @magnitude_byval(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
llvm.func internal @magnitude_byval(%v: !llvm.ptr {llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>, llvm.align = 4 : i64}) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32
  %py = llvm.getelementptr inbounds %v[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"Vec3", (f32, f32, f32)>
  %y = llvm.load %py {alignment = 4 : i64} : !llvm.ptr -> f32
  %pz = llvm.getelementptr inbounds %v[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %z = llvm.load %pz {alignment = 4 : i64} : !llvm.ptr -> f32
  %s = llvm.fadd %x, %y : f32
  %t = llvm.fadd %s, %z : f32
  llvm.return %t : f32
}
llvm.func @call_magnitude_byval(%x: f32) -> f32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.struct<"Vec3", (f32, f32, f32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %x, %slot {alignment = 4 : i64} : f32, !llvm.ptr
  %r = llvm.call @magnitude_byval(%slot) : (!llvm.ptr {llvm.byval = !llvm.struct<"Vec3", (f32, f32, f32)>, llvm.align = 4 : i64}) -> f32
  llvm.return %r : f32
}

// -----

// Seed 000's determinant(Mat4): 64 bytes stay byval with the attributes
// they had (llc aligns the .param of a function whose calls are all visible
// to 16 by itself; raising llvm.align in the callee alone made it disagree
// with the call site's, which describes the caller's memory).
// CHECK-LABEL: llvm.func internal @determinant(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>}) -> f32
// CHECK-LABEL: llvm.func @call_determinant(
// CHECK-SAME: %[[M:[^:]*]]: !llvm.ptr)
// CHECK-NEXT: llvm.call @determinant(%[[M]])
llvm.func internal @determinant(%m: !llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32 {
  %a = llvm.load %m {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %a : f32
}
llvm.func @call_determinant(%m: !llvm.ptr) -> f32 {
  %r = llvm.call @determinant(%m) : (!llvm.ptr {llvm.byval = !llvm.struct<"Mat4", (array<16 x f32>)>, llvm.align = 4 : i64}) -> f32
  llvm.return %r : f32
}

// -----

// Seed 000's identity() -> Mat4: the caller stores the whole result, so it
// becomes an sret pointer and the caller's slot is passed.
// CHECK-LABEL: llvm.func internal @identity(
// CHECK-SAME: %[[RET:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.sret = !llvm.array<16 x f32>}, %[[D:[^:]*]]: f32) {
// CHECK: %[[M:.*]] = llvm.insertvalue %[[D]]
// CHECK-NEXT: llvm.store %[[M]], %[[RET]] {alignment = 4 : i64} : !llvm.array<16 x f32>, !llvm.ptr
// CHECK-NEXT: llvm.return{{$}}
// CHECK-LABEL: llvm.func @store_identity(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr, %[[D:[^:]*]]: f32)
// CHECK-NEXT: llvm.call @identity(%[[OUT]], %[[D]]) : (!llvm.ptr, f32) -> ()
// CHECK-NEXT: llvm.return
// Field by field into a member 64 bytes into the caller's memory.
// CHECK-LABEL: llvm.func @store_identity_fields(
// CHECK-SAME: %[[OUT:[^:]*]]: !llvm.ptr, %[[D:[^:]*]]: f32)
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[OUT]][64] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT: llvm.call @identity(%[[AT]], %[[D]]) : (!llvm.ptr, f32) -> ()
// CHECK-NEXT: llvm.return
llvm.func internal @identity(%d: f32) -> !llvm.array<16 x f32> {
  %u = llvm.mlir.poison : !llvm.array<16 x f32>
  %m = llvm.insertvalue %d, %u[0] : !llvm.array<16 x f32>
  llvm.return %m : !llvm.array<16 x f32>
}
llvm.func @store_identity(%out: !llvm.ptr, %d: f32) {
  %r = llvm.call @identity(%d) : (f32) -> !llvm.array<16 x f32>
  llvm.store %r, %out {alignment = 16 : i64} : !llvm.array<16 x f32>, !llvm.ptr
  llvm.return
}
llvm.func @store_identity_fields(%out: !llvm.ptr, %d: f32) {
  %r = llvm.call @identity(%d) : (f32) -> !llvm.array<16 x f32>
  %a = llvm.extractvalue %r[0] : !llvm.array<16 x f32>
  %b = llvm.extractvalue %r[1] : !llvm.array<16 x f32>
  %c = llvm.extractvalue %r[2] : !llvm.array<16 x f32>
  %e = llvm.extractvalue %r[3] : !llvm.array<16 x f32>
  %f = llvm.extractvalue %r[4] : !llvm.array<16 x f32>
  %g = llvm.extractvalue %r[5] : !llvm.array<16 x f32>
  %h = llvm.extractvalue %r[6] : !llvm.array<16 x f32>
  %i = llvm.extractvalue %r[7] : !llvm.array<16 x f32>
  %j = llvm.extractvalue %r[8] : !llvm.array<16 x f32>
  %k = llvm.extractvalue %r[9] : !llvm.array<16 x f32>
  %l = llvm.extractvalue %r[10] : !llvm.array<16 x f32>
  %m = llvm.extractvalue %r[11] : !llvm.array<16 x f32>
  %n = llvm.extractvalue %r[12] : !llvm.array<16 x f32>
  %o = llvm.extractvalue %r[13] : !llvm.array<16 x f32>
  %p = llvm.extractvalue %r[14] : !llvm.array<16 x f32>
  %q = llvm.extractvalue %r[15] : !llvm.array<16 x f32>
  %base = llvm.getelementptr %out[64] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %a, %base {alignment = 4 : i64} : f32, !llvm.ptr
  %p1 = llvm.getelementptr %out[68] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %b, %p1 {alignment = 4 : i64} : f32, !llvm.ptr
  %p2 = llvm.getelementptr %base[8] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %c, %p2 {alignment = 4 : i64} : f32, !llvm.ptr
  %p3 = llvm.getelementptr %base[12] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %e, %p3 {alignment = 4 : i64} : f32, !llvm.ptr
  %p4 = llvm.getelementptr %base[16] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %f, %p4 {alignment = 4 : i64} : f32, !llvm.ptr
  %p5 = llvm.getelementptr %base[20] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %g, %p5 {alignment = 4 : i64} : f32, !llvm.ptr
  %p6 = llvm.getelementptr %base[24] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %h, %p6 {alignment = 4 : i64} : f32, !llvm.ptr
  %p7 = llvm.getelementptr %base[28] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %i, %p7 {alignment = 4 : i64} : f32, !llvm.ptr
  %p8 = llvm.getelementptr %base[32] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %j, %p8 {alignment = 4 : i64} : f32, !llvm.ptr
  %p9 = llvm.getelementptr %base[36] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %k, %p9 {alignment = 4 : i64} : f32, !llvm.ptr
  %p10 = llvm.getelementptr %base[40] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %l, %p10 {alignment = 4 : i64} : f32, !llvm.ptr
  %p11 = llvm.getelementptr %base[44] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %m, %p11 {alignment = 4 : i64} : f32, !llvm.ptr
  %p12 = llvm.getelementptr %base[48] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %n, %p12 {alignment = 4 : i64} : f32, !llvm.ptr
  %p13 = llvm.getelementptr %base[52] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %o, %p13 {alignment = 4 : i64} : f32, !llvm.ptr
  %p14 = llvm.getelementptr %base[56] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %p, %p14 {alignment = 4 : i64} : f32, !llvm.ptr
  %p15 = llvm.getelementptr %base[60] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %q, %p15 {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}

// -----

// One caller uses a single element: an sret slot would be new local memory
// there, so the result stays in param space for every caller.
// CHECK-LABEL: llvm.func internal @identity2(%{{.*}}: f32) -> !llvm.array<16 x f32>
// CHECK-LABEL: llvm.func @store_identity2(
// CHECK: %[[R:.*]] = llvm.call @identity2(%{{.*}}) : (f32) -> !llvm.array<16 x f32>
// CHECK-NEXT: llvm.store %[[R]]
// CHECK-LABEL: llvm.func @one_element(
// CHECK: llvm.call @identity2(%{{.*}}) : (f32) -> !llvm.array<16 x f32>
llvm.func internal @identity2(%d: f32) -> !llvm.array<16 x f32> {
  %u = llvm.mlir.poison : !llvm.array<16 x f32>
  %m = llvm.insertvalue %d, %u[0] : !llvm.array<16 x f32>
  llvm.return %m : !llvm.array<16 x f32>
}
llvm.func @store_identity2(%out: !llvm.ptr, %d: f32) {
  %r = llvm.call @identity2(%d) : (f32) -> !llvm.array<16 x f32>
  llvm.store %r, %out {alignment = 4 : i64} : !llvm.array<16 x f32>, !llvm.ptr
  llvm.return
}
llvm.func @one_element(%d: f32) -> f32 {
  %r = llvm.call @identity2(%d) : (f32) -> !llvm.array<16 x f32>
  %e = llvm.extractvalue %r[5] : !llvm.array<16 x f32>
  llvm.return %e : f32
}

// -----

// A store between the call and the store of its result: the callee's store
// would come too early.
// CHECK-LABEL: llvm.func internal @identity3(%{{.*}}: f32) -> !llvm.array<16 x f32>
// CHECK-LABEL: llvm.func @store_between(
// CHECK: llvm.call @identity3(%{{.*}}) : (f32) -> !llvm.array<16 x f32>
llvm.func internal @identity3(%d: f32) -> !llvm.array<16 x f32> {
  %u = llvm.mlir.poison : !llvm.array<16 x f32>
  %m = llvm.insertvalue %d, %u[0] : !llvm.array<16 x f32>
  llvm.return %m : !llvm.array<16 x f32>
}
llvm.func @store_between(%out: !llvm.ptr, %flag: !llvm.ptr, %d: f32) {
  %r = llvm.call @identity3(%d) : (f32) -> !llvm.array<16 x f32>
  llvm.store %d, %flag : f32, !llvm.ptr
  llvm.store %r, %out {alignment = 4 : i64} : !llvm.array<16 x f32>, !llvm.ptr
  llvm.return
}

// -----

// Visible outside the module, or address taken: the symbol keeps its
// signature, as a wrapper whose body is one call of an internal clone with
// the lowered ABI, and the module's own calls go to the clone
// (lower_struct_args/external.rs); an address-taken wrapper is marked
// nvptx-libcall-callee. Where the address is taken, only a clone that
// frees memory is worth the wrapper the indirect calls then go through:
// @taken's byval pointer (its callers' slot goes), not an aggregate value
// (sass-rules.mlir).
// The clone goes before the wrapper (llc declares no clone after a wrapper
// marked nvptx-libcall-callee: ptxas "Unknown symbol 'taken_ptxcc'").
// CHECK-LABEL: llvm.func internal @external_ptxcc(%{{.*}}: i32, %{{.*}}: f32) -> f32
// CHECK-LABEL: llvm.func @external(%{{.*}}: !llvm.struct<(i32, f32)>) -> f32 {
// CHECK: llvm.call @external_ptxcc(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
// CHECK-LABEL: llvm.func internal @taken_ptxcc(%{{.*}}: i32, %{{.*}}: f32) -> f32
// CHECK-LABEL: llvm.func internal @taken(%{{.*}}: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}) -> f32 attributes {passthrough = {{\[\[}}"nvptx-libcall-callee", "true"]]}
// CHECK: llvm.call @taken_ptxcc(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
// CHECK-LABEL: llvm.func @users(
// CHECK: llvm.call @external_ptxcc(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
// CHECK: llvm.call @taken_ptxcc(%{{.*}}, %{{.*}}) : (i32, f32) -> f32
// CHECK: llvm.mlir.addressof @taken
llvm.func @external(%v: !llvm.struct<(i32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(i32, f32)>
  %y = llvm.sitofp %x : i32 to f32
  llvm.return %y : f32
}
llvm.func internal @taken(%p: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}) -> f32 {
  %x = llvm.load %p : !llvm.ptr -> i32
  %y = llvm.sitofp %x : i32 to f32
  llvm.return %y : f32
}
llvm.func @users(%v: !llvm.struct<(i32, f32)>) -> !llvm.ptr {
  %a = llvm.call @external(%v) : (!llvm.struct<(i32, f32)>) -> f32
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.struct<(i32, f32)> : (i32) -> !llvm.ptr
  llvm.store %v, %slot : !llvm.struct<(i32, f32)>, !llvm.ptr
  %b = llvm.call @taken(%slot) : (!llvm.ptr {llvm.byval = !llvm.struct<(i32, f32)>}) -> f32
  %f = llvm.mlir.addressof @taken : !llvm.ptr
  llvm.return %f : !llvm.ptr
}

// -----

// No clone where it would not help or would be wrong: a weak definition
// (another may replace it at link time), a function the module never calls,
// one whose ABI would not change, a declaration, a musttail callee.
// CHECK-LABEL: llvm.func weak @ext_weak(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @ext_uncalled(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @ext_scalar(%{{.*}}: f32) -> f32
// CHECK-LABEL: llvm.func @ext_declared(!llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @ext_tail(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func @ext_callers(
// CHECK: llvm.call @ext_weak(%{{.*}}) : (!llvm.struct<(f32, f32)>) -> f32
// CHECK: llvm.call @ext_scalar(%{{.*}}) : (f32) -> f32
// CHECK: llvm.call @ext_declared(%{{.*}}) : (!llvm.struct<(f32, f32)>) -> f32
// CHECK-NOT: _ptxcc
llvm.func weak @ext_weak(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  llvm.return %x : f32
}
llvm.func @ext_uncalled(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  llvm.return %x : f32
}
llvm.func @ext_scalar(%x: f32) -> f32 {
  llvm.return %x : f32
}
llvm.func @ext_declared(!llvm.struct<(f32, f32)>) -> f32
llvm.func @ext_tail(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  llvm.return %x : f32
}
llvm.func @ext_callers(%v: !llvm.struct<(f32, f32)>, %x: f32) -> f32 {
  %a = llvm.call @ext_weak(%v) : (!llvm.struct<(f32, f32)>) -> f32
  %b = llvm.call @ext_scalar(%x) : (f32) -> f32
  %c = llvm.call @ext_declared(%v) : (!llvm.struct<(f32, f32)>) -> f32
  %d = llvm.call @ext_tail_caller(%v) : (!llvm.struct<(f32, f32)>) -> f32
  llvm.return %a : f32
}
llvm.func @ext_tail_caller(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %r = llvm.call musttail @ext_tail(%v) : (!llvm.struct<(f32, f32)>) -> f32
  llvm.return %r : f32
}

// -----

// A byval the callee writes stays byval (llc copies it, and its SROA
// removes the copy where the accesses allow), unchanged; so does a
// union whose data lives where its LLVM type has padding: flattening passes
// leaves only, so it needs leaves that cover every byte.
// CHECK-LABEL: llvm.func internal @scale(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(f32, i32)>}, %[[K:[^:]*]]: f32) -> f32
// CHECK-NEXT: %[[L:.*]] = llvm.load %[[S]]
// CHECK-NEXT: %[[M:.*]] = llvm.fmul %[[L]], %[[K]]
// CHECK-NEXT: llvm.store %[[M]], %[[S]]
// CHECK-LABEL: llvm.func @call_scale(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr, %[[K:[^:]*]]: f32)
// CHECK-NEXT: llvm.call @scale(%[[S]], %[[K]])
// CHECK-LABEL: llvm.func internal @union_byte(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = {{[0-9]+}} : i64, llvm.byval = !llvm.struct<"union.U", (struct<(i8, i32)>)>}) -> i8
llvm.func internal @scale(%v: !llvm.ptr {llvm.byval = !llvm.struct<(f32, i32)>, llvm.align = 4 : i64}, %k: f32) -> f32 {
  %x = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32
  %y = llvm.fmul %x, %k : f32
  llvm.store %y, %v {alignment = 4 : i64} : f32, !llvm.ptr
  %z = llvm.load %v {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.return %z : f32
}
llvm.func @call_scale(%p: !llvm.ptr, %k: f32) -> f32 {
  %r = llvm.call @scale(%p, %k) : (!llvm.ptr {llvm.byval = !llvm.struct<(f32, i32)>, llvm.align = 4 : i64}, f32) -> f32
  llvm.return %r : f32
}
llvm.func internal @union_byte(%u: !llvm.ptr {llvm.byval = !llvm.struct<"union.U", (struct<(i8, i32)>)>, llvm.align = 4 : i64}) -> i8 {
  %p = llvm.getelementptr %u[1] : (!llvm.ptr) -> !llvm.ptr, i8
  %b = llvm.load %p : !llvm.ptr -> i8
  llvm.return %b : i8
}
llvm.func @call_union_byte(%p: !llvm.ptr) -> i8 {
  %r = llvm.call @union_byte(%p) : (!llvm.ptr {llvm.byval = !llvm.struct<"union.U", (struct<(i8, i32)>)>, llvm.align = 4 : i64}) -> i8
  llvm.return %r : i8
}

// -----

// Nested leaves and a short vector; the whole value is still needed, so it
// is rebuilt with insertvalue.
// CHECK-LABEL: llvm.func internal @nested(
// CHECK-SAME: %[[A:[^:]*]]: i8, %[[B:[^:]*]]: f32, %[[C:[^:]*]]: vector<2xf32>)
// CHECK-NEXT: %[[U:.*]] = llvm.mlir.poison
// CHECK-NEXT: %[[V1:.*]] = llvm.insertvalue %[[A]], %[[U]][0]
// CHECK-NEXT: %[[V2:.*]] = llvm.insertvalue %[[B]], %[[V1]][1, 0]
// CHECK-NEXT: %[[V3:.*]] = llvm.insertvalue %[[C]], %[[V2]][1, 1]
// CHECK-NEXT: llvm.return %[[V3]]
// CHECK-LABEL: llvm.func @call_nested(
// CHECK: llvm.call @nested(%{{.*}}, %{{.*}}, %{{.*}}) : (i8, f32, vector<2xf32>)
llvm.func internal @nested(%v: !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>) -> !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)> {
  %c = llvm.extractvalue %v[0] : !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>
  llvm.return %v : !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>
}
llvm.func @call_nested(%v: !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>) -> !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)> {
  %r = llvm.call @nested(%v) : (!llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>) -> !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>
  llvm.return %r : !llvm.struct<(i8, struct<(f32, vector<2xf32>)>)>
}

// -----

// Not flattened: a vector leaf above vector-threshold, and 36 bytes.
// CHECK-LABEL: llvm.func internal @long_vector(%{{.*}}: !llvm.struct<(vector<8xf32>)>) -> f32
// CHECK-LABEL: llvm.func internal @big(%{{.*}}: !llvm.array<9 x f32>) -> f32
// With the thresholds raised, both are flattened:
// RAISED-LABEL: llvm.func internal @long_vector(%{{.*}}: vector<8xf32>) -> f32
// RAISED-LABEL: llvm.func internal @big(
// RAISED-SAME: {{(%[^:]*: f32, ){8}%[^:]*: f32}}) -> f32
llvm.func internal @long_vector(%v: !llvm.struct<(vector<8xf32>)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(vector<8xf32>)>
  %c = llvm.mlir.constant(0 : i32) : i32
  %e = llvm.extractelement %x[%c : i32] : vector<8xf32>
  llvm.return %e : f32
}
llvm.func internal @big(%v: !llvm.array<9 x f32>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.array<9 x f32>
  llvm.return %x : f32
}
llvm.func @call_unflattened(%a: !llvm.struct<(vector<8xf32>)>, %b: !llvm.array<9 x f32>) -> f32 {
  %x = llvm.call @long_vector(%a) : (!llvm.struct<(vector<8xf32>)>) -> f32
  %y = llvm.call @big(%b) : (!llvm.array<9 x f32>) -> f32
  %s = llvm.fadd %x, %y : f32
  llvm.return %s : f32
}

// -----

// A musttail call ties the caller's and the callee's signatures: neither
// changes.
// CHECK-LABEL: llvm.func internal @tail_callee(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK-LABEL: llvm.func internal @tail_caller(%{{.*}}: !llvm.struct<(f32, f32)>) -> f32
// CHECK: llvm.call musttail @tail_callee(
llvm.func internal @tail_callee(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %x = llvm.extractvalue %v[0] : !llvm.struct<(f32, f32)>
  llvm.return %x : f32
}
llvm.func internal @tail_caller(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %r = llvm.call musttail @tail_callee(%v) : (!llvm.struct<(f32, f32)>) -> f32
  llvm.return %r : f32
}
llvm.func @tail_user(%v: !llvm.struct<(f32, f32)>) -> f32 {
  %r = llvm.call @tail_caller(%v) : (!llvm.struct<(f32, f32)>) -> f32
  llvm.return %r : f32
}

// -----

// A pointer into shared memory is 32 bits with -fcuda-short-ptr: its
// struct's offsets depend on a data layout ptxcc does not read, so it is
// not flattened.
// CHECK-LABEL: llvm.func internal @shared_pair(%{{.*}}: !llvm.struct<(ptr<3>, i32)>) -> i32
llvm.func internal @shared_pair(%v: !llvm.struct<(ptr<3>, i32)>) -> i32 {
  %x = llvm.extractvalue %v[1] : !llvm.struct<(ptr<3>, i32)>
  llvm.return %x : i32
}
llvm.func @call_shared_pair(%v: !llvm.struct<(ptr<3>, i32)>) -> i32 {
  %r = llvm.call @shared_pair(%v) : (!llvm.struct<(ptr<3>, i32)>) -> i32
  llvm.return %r : i32
}
