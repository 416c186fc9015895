// lower-struct-args, escapes: when the address of a kernel's byval struct
// leaves the loads (a call, a select or phi, a comparison) but memory is only
// read, one ptxcc.param_to_generic feeds those uses and the parameter
// becomes an nvvm.grid_constant: no copy (the cast-only path of seed 002).
// A write, or an escape that may lead to one, makes one local copy
// (seed 001). Modelled on upstream's lower-byval-args.ll and
// lower-args-gridconstant.ll.
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// Without cvta.param (sm_60) every generic use needs a copy:
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=chip=sm_60 | FileCheck %s --check-prefix=SM60
// With opt-byval=false nothing changes (seed 002) but the recorded flag:
// RUN: %ptxcc-opt %s --split-input-file > %t.input
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args=opt-byval=false > %t.off
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// RUN: sed -e 's/ attributes {ptxcc.opt_byval = false}//' %t.off | diff %t.input -
// The output of the whole pipeline is valid PTX with the promised shape.
// ptxas accepts all of it but @empty_struct's `.param .align 1 .b8
// empty_struct_param_0[0]` ("incomplete array"), which llc declares for that
// kernel without ptxcc too (Inputs/empty-byval-kernel.ll, the last RUN line).
// (promote-local=false: the copies as lower-struct-args makes them; with
// promote-local-arrays, copy_on_store's copy becomes registers, PROMOTED.)
// RUN: %ptxcc-opt %s --ptxcc-pipeline=promote-local=false | %to-llvmir | env PTXAS_CHECK_ALLOW='cannot be an incomplete array' %llc-sm90 \
// RUN:   | FileCheck %s --check-prefix=PTX
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | env PTXAS_CHECK_ALLOW='cannot be an incomplete array' %llc-sm90 \
// RUN:   | FileCheck %s --check-prefix=PROMOTED
// RUN: env PTXAS_CHECK_ALLOW='cannot be an incomplete array' %llc-sm90 %S/Inputs/empty-byval-kernel.ll -o %t.empty.ptx
// RUN: %if ptxas %{ not %ptxas-check %t.empty.ptx 2>&1 | FileCheck %s --check-prefix=EMPTY %}
// EMPTY: error: Parameter to entry function cannot be an incomplete array.

// OFF: module attributes {ptxcc.opt_byval = false}

// Seed 002's cast-only example: the address flows into @consume, which
// promises to only read (readonly + nocapture). One param_to_generic, no
// field loads, no copy, and the parameter is marked a grid constant.
// CHECK-LABEL: llvm.func ptx_kernelcc @seed002_consume(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<"S", (f64, i8, array<4 x i32>)>, nvvm.grid_constant}
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK-NEXT: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:.*]] = "ptxcc.param_to_generic"(%[[P]]) : (!llvm.ptr<101>) -> !llvm.ptr
// CHECK-NEXT: llvm.call @consume(%[[G]])
// CHECK-NEXT: llvm.return
// SM60-LABEL: llvm.func ptx_kernelcc @seed002_consume(
// SM60: %[[P:.*]] = llvm.addrspacecast
// SM60: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<"S", (f64, i8, array<4 x i32>)> {alignment = 8 : i64} : (i32) -> !llvm.ptr
// SM60-NEXT: "ptxcc.copy_param"(%[[P]], %[[SLOT]]) {alignment = 8 : i64, size = 32 : i64}
// SM60-NEXT: llvm.call @consume(%[[SLOT]])
// PTX-LABEL: .entry seed002_consume(
// PTX-NOT: .local
// PTX: cvta.param.u64
// PTX: call.uni consume,
llvm.func @consume(!llvm.ptr {llvm.readonly, llvm.nocapture})
llvm.func ptx_kernelcc @seed002_consume(%s: !llvm.ptr {llvm.byval = !llvm.struct<"S", (f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}) {
  llvm.call @consume(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// What MLIR front ends produce: no attributes anywhere. The callee's body is
// in the module and only reads through its parameter (through a GEP and a
// call to another reader, recursion included), so the struct is not copied.
// llc alone copies all 32 bytes to local memory here.
// CHECK-LABEL: llvm.func ptx_kernelcc @reader_in_module(
// CHECK-SAME: nvvm.grid_constant
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK-NEXT: %[[G:.*]] = "ptxcc.param_to_generic"(%[[P]])
// CHECK-NEXT: llvm.call @sum(%[[G]], %{{.*}})
// CHECK-NOT: llvm.alloca
// PTX-LABEL: .entry reader_in_module(
// PTX-NOT: .local
// PTX: cvta.param.u64
llvm.func @sum(%p: !llvm.ptr, %n: i32) -> i32 {
  %q = llvm.getelementptr %p[0, 2, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"S", (f64, i8, array<4 x i32>)>
  %v = llvm.load %q : !llvm.ptr -> i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %done = llvm.icmp "eq" %n, %zero : i32
  llvm.cond_br %done, ^end, ^more
^more:
  %one = llvm.mlir.constant(1 : i32) : i32
  %m = llvm.sub %n, %one : i32
  %rest = llvm.call @sum(%p, %m) : (!llvm.ptr, i32) -> i32
  %total = llvm.add %v, %rest : i32
  llvm.return %total : i32
^end:
  llvm.return %v : i32
}
llvm.func ptx_kernelcc @reader_in_module(%s: !llvm.ptr {llvm.byval = !llvm.struct<"S", (f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %n: i32, %out: !llvm.ptr) {
  %v = llvm.call @sum(%s, %n) : (!llvm.ptr, i32) -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A callee in the module that writes through the pointer: one copy, and
// every use works on it.
// CHECK-LABEL: llvm.func ptx_kernelcc @writer_in_module(
// CHECK-NOT: nvvm.grid_constant
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, i32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: "ptxcc.copy_param"(%[[P]], %[[SLOT]]) {alignment = 4 : i64, size = 8 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @bump(%[[SLOT]])
// CHECK-NEXT: llvm.load %[[SLOT]]
// CHECK-NOT: "ptxcc.
llvm.func @bump(%p: !llvm.ptr) {
  %v = llvm.load %p : !llvm.ptr -> i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %w = llvm.add %v, %one : i32
  llvm.store %w, %p : i32, !llvm.ptr
  llvm.return
}
llvm.func ptx_kernelcc @writer_in_module(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  llvm.call @bump(%s) : (!llvm.ptr) -> ()
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A declared callee without attributes may write: copy (what llc does too).
// CHECK-LABEL: llvm.func ptx_kernelcc @unknown_callee(
// CHECK: "ptxcc.copy_param"
// CHECK-NEXT: llvm.call @unknown(
llvm.func @unknown(!llvm.ptr)
llvm.func ptx_kernelcc @unknown_callee(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}) {
  llvm.call @unknown(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// The call site's own memory effects can vouch for the call when the
// address is not captured: it reads at most and returns no pointer.
// CHECK-LABEL: llvm.func ptx_kernelcc @call_site_reads_only(
// CHECK: "ptxcc.param_to_generic"
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
llvm.func @opaque(!llvm.ptr) -> i32
llvm.func ptx_kernelcc @call_site_reads_only(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %v = llvm.call @opaque(%s) {memory_effects = #llvm.memory_effects<other = read, argMem = read, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>} : (!llvm.ptr {llvm.nocapture}) -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Memory effects alone do not vouch: a function that only reads can still
// hand the address back as an integer, and the kernel then writes through
// it. Copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @read_only_but_captured(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.call @hide(%[[SLOT]])
llvm.func @hide(!llvm.ptr) -> i64 attributes {memory_effects = #llvm.memory_effects<other = read, argMem = read, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>}
llvm.func ptx_kernelcc @read_only_but_captured(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %i = llvm.call @hide(%s) : (!llvm.ptr) -> i64
  %p = llvm.inttoptr %i : i64 to !llvm.ptr
  %seven = llvm.mlir.constant(7 : i32) : i32
  llvm.store %seven, %p : i32, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A linkonce_odr body may be replaced by a copy optimised differently: like
// LLVM, ptxcc infers nothing from it. Copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @odr_callee(
// CHECK: "ptxcc.copy_param"
llvm.func linkonce_odr @odr_reader(%p: !llvm.ptr) -> i32 {
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}
llvm.func ptx_kernelcc @odr_callee(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %v = llvm.call @odr_reader(%s) : (!llvm.ptr) -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Storing the address itself is an escape: copy (upstream escape_ptr_store).
// CHECK-LABEL: llvm.func ptx_kernelcc @escape_ptr_store(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[OUT:[^:]*]]: !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.store %[[SLOT]], %[[OUT]] : !llvm.ptr, !llvm.ptr
llvm.func ptx_kernelcc @escape_ptr_store(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  llvm.store %s, %out : !llvm.ptr, !llvm.ptr
  llvm.return
}

// -----

// ptrtoint of a derived pointer: copy (upstream escape_ptrtoint).
// CHECK-LABEL: llvm.func ptx_kernelcc @escape_ptrtoint(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[SLOT]][4]
// CHECK-NEXT: llvm.ptrtoint %[[Q]]
llvm.func ptx_kernelcc @escape_ptrtoint(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %i = llvm.ptrtoint %q : !llvm.ptr to i64
  llvm.store %i, %out : i64, !llvm.ptr
  llvm.return
}

// -----

// A store through the struct copies it once; the loads then read the copy
// (upstream copy_on_store). With 16-byte alignment the copy is vectorised.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_on_store(
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x f32> {alignment = 16 : i64}
// CHECK-NEXT: "ptxcc.copy_param"(%[[P]], %[[SLOT]]) {alignment = 16 : i64, size = 32 : i64}
// CHECK-NOT: "ptxcc.copy_param"
// CHECK: %[[E:.*]] = llvm.getelementptr %[[SLOT]][0, %{{.*}}]
// CHECK-NEXT: llvm.store %{{.*}}, %[[E]]
// CHECK: llvm.load %[[SLOT]]
// PTX-LABEL: .entry copy_on_store(
// PTX: .local .align 16 .b8 __local_depot{{[0-9]+}}[32];
// PTX-COUNT-2: st.local.v4.b32
// PTX-NOT: st.local.v4.b32
// PTX: ret;
// PROMOTED-LABEL: .entry copy_on_store(
// PROMOTED-NOT: .local
// PROMOTED: selp
// PROMOTED-NOT: .local
// PROMOTED: ret;
llvm.func ptx_kernelcc @copy_on_store(%s: !llvm.ptr {llvm.byval = !llvm.array<8 x f32>, llvm.align = 16 : i64}, %i: i64, %x: f32, %out: !llvm.ptr) {
  %e = llvm.getelementptr %s[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x f32>
  llvm.store %x, %e : f32, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> f32
  llvm.store %v, %out : f32, !llvm.ptr
  llvm.return
}

// -----

// memcpy into the struct and memset are writes: copy (upstream
// memcpy_to_param).
// CHECK-LABEL: llvm.func ptx_kernelcc @memcpy_to_param(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: "llvm.intr.memcpy"(%[[SLOT]], %{{.*}}, %{{.*}})
// CHECK-LABEL: llvm.func ptx_kernelcc @memset_param(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: "llvm.intr.memset"(%[[SLOT]],
llvm.func ptx_kernelcc @memcpy_to_param(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %in: !llvm.ptr, %n: i64) {
  "llvm.intr.memcpy"(%s, %in, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}
llvm.func ptx_kernelcc @memset_param(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %n: i64) {
  %z = llvm.mlir.constant(0 : i8) : i8
  "llvm.intr.memset"(%s, %z, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  llvm.return
}

// -----

// A select between two fields, read only: the select needs generic
// pointers, so both fields are addressed through one param_to_generic
// (upstream test_select: a copy on sm_60, cvta.param on sm_70+).
// CHECK-LABEL: llvm.func ptx_kernelcc @test_select(
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK-NEXT: %[[G:.*]] = "ptxcc.param_to_generic"(%[[P]])
// CHECK: %[[B:.*]] = llvm.getelementptr %[[G]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[SEL:.*]] = llvm.select %{{.*}}, %[[G]], %[[B]]
// CHECK-NEXT: llvm.load %[[SEL]] : !llvm.ptr -> i32
// CHECK-NOT: llvm.alloca
// SM60-LABEL: llvm.func ptx_kernelcc @test_select(
// SM60: "ptxcc.copy_param"
// llc's address-space inference even turns the select back into param
// space:
// PTX-LABEL: .entry test_select(
// PTX-NOT: .local
// PTX: selp.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, %p{{[0-9]+}};
// PTX-NEXT: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
llvm.func ptx_kernelcc @test_select(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %c: i1, %out: !llvm.ptr) {
  %b = llvm.getelementptr %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %sel = llvm.select %c, %s, %b : i1, !llvm.ptr
  %v = llvm.load %sel : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// The same select, then written through: copy (upstream test_select_write).
// CHECK-LABEL: llvm.func ptx_kernelcc @test_select_write(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.select %{{.*}}, %[[SLOT]], %{{.*}}
// CHECK-NOT: param_to_generic
llvm.func ptx_kernelcc @test_select_write(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %c: i1) {
  %b = llvm.getelementptr %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %sel = llvm.select %c, %s, %b : i1, !llvm.ptr
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.store %one, %sel : i32, !llvm.ptr
  llvm.return
}

// -----

// A phi (block argument) over the struct and another pointer, read only:
// the branch passes the generic address (upstream test_phi).
// CHECK-LABEL: llvm.func ptx_kernelcc @test_phi(
// CHECK: %[[G:.*]] = "ptxcc.param_to_generic"
// CHECK: llvm.cond_br %{{.*}}, ^[[JOIN:.*]](%[[G]] : !llvm.ptr), ^[[JOIN]](%{{.*}} : !llvm.ptr)
// CHECK-NOT: llvm.alloca
// SM60-LABEL: llvm.func ptx_kernelcc @test_phi(
// SM60: "ptxcc.copy_param"
// PTX-LABEL: .entry test_phi(
// PTX-NOT: .local
// PTX: cvta.param.u64
llvm.func ptx_kernelcc @test_phi(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %other: !llvm.ptr, %c: i1, %out: !llvm.ptr) {
  llvm.cond_br %c, ^join(%s : !llvm.ptr), ^join(%other : !llvm.ptr)
^join(%p: !llvm.ptr):
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// The phi written through: copy (upstream test_phi_write).
// CHECK-LABEL: llvm.func ptx_kernelcc @test_phi_write(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.cond_br %{{.*}}, ^{{.*}}(%[[SLOT]] : !llvm.ptr)
llvm.func ptx_kernelcc @test_phi_write(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %other: !llvm.ptr, %c: i1) {
  llvm.cond_br %c, ^join(%s : !llvm.ptr), ^join(%other : !llvm.ptr)
^join(%p: !llvm.ptr):
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.store %one, %p : i32, !llvm.ptr
  llvm.return
}

// -----

// Partial escape: field loads stay ld.param at their offsets, and only the
// call gets the generic address (a GEP of it for the derived pointer).
// CHECK-LABEL: llvm.func ptx_kernelcc @partial_escape(
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK-NEXT: %[[G:.*]] = "ptxcc.param_to_generic"(%[[P]])
// CHECK-DAG: "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 4 : i64}
// CHECK-DAG: %[[GQ:.*]] = llvm.getelementptr %[[G]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.call @consume_field(%[[GQ]])
// PTX-LABEL: .entry partial_escape(
// PTX-NOT: .local
// PTX: ld.param.b32 %r{{[0-9]+}}, [partial_escape_param_0+4];
llvm.func @consume_field(!llvm.ptr {llvm.readonly, llvm.nocapture})
llvm.func ptx_kernelcc @partial_escape(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.call @consume_field(%q) : (!llvm.ptr) -> ()
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Grid constants (explicit nvvm.grid_constant, which MLIR accepts only
// with nvvm.kernel) are read-only by contract:
// escapes to unknown code, to memory and as integers all use the generic
// address and nothing is copied (upstream grid_const_escape,
// multiple_grid_const_escape, grid_const_memory_escape, grid_const_ptrtoint).
// CHECK-LABEL: llvm.func ptx_kernelcc @multiple_grid_const_escape(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}, %[[B:[^:]*]]: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}
// CHECK-DAG: %[[PA:.*]] = llvm.addrspacecast %[[A]]
// CHECK-DAG: %[[GA:.*]] = "ptxcc.param_to_generic"(%[[PA]])
// CHECK-DAG: %[[PB:.*]] = llvm.addrspacecast %[[B]]
// CHECK-DAG: %[[GB:.*]] = "ptxcc.param_to_generic"(%[[PB]])
// CHECK: llvm.call @unknown2(%[[GA]], %[[GB]])
// CHECK-NEXT: llvm.store %[[GA]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.ptrtoint %[[GB]]
// CHECK-NOT: llvm.alloca
// PTX-LABEL: .entry multiple_grid_const_escape(
// PTX-NOT: .local
// PTX-COUNT-2: cvta.param.u64
llvm.func @unknown2(!llvm.ptr, !llvm.ptr)
llvm.func ptx_kernelcc @multiple_grid_const_escape(%a: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}, %b: !llvm.ptr {llvm.byval = i32, nvvm.grid_constant}, %out: !llvm.ptr) attributes {nvvm.kernel} {
  llvm.call @unknown2(%a, %b) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.store %a, %out : !llvm.ptr, !llvm.ptr
  %i = llvm.ptrtoint %b : !llvm.ptr to i64
  llvm.store %i, %out : i64, !llvm.ptr
  llvm.return
}

// -----

// clang -O2 marks a kernel parameter that is only read and not captured
// readonly + nocapture: an implicit grid constant, so even a call to an
// unknown function keeps it in param space.
// CHECK-LABEL: llvm.func ptx_kernelcc @implicit_grid_constant(
// CHECK-SAME: nvvm.grid_constant
// CHECK: "ptxcc.param_to_generic"
// CHECK-NOT: llvm.alloca
llvm.func @unknown_sink(!llvm.ptr)
llvm.func ptx_kernelcc @implicit_grid_constant(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.readonly, llvm.nocapture}) {
  llvm.call @unknown_sink(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// Comparing the address needs a generic pointer, nothing else.
// CHECK-LABEL: llvm.func ptx_kernelcc @compare_address(
// CHECK: %[[G:.*]] = "ptxcc.param_to_generic"
// CHECK: llvm.icmp "eq" %[[G]], %{{.*}} : !llvm.ptr
llvm.func ptx_kernelcc @compare_address(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %other: !llvm.ptr, %out: !llvm.ptr) {
  %same = llvm.icmp "eq" %s, %other : !llvm.ptr
  llvm.store %same, %out : i1, !llvm.ptr
  llvm.return
}

// -----

// Two byval structs in one kernel are decided separately: the read one stays
// in param space, the written one is copied.
// CHECK-LABEL: llvm.func ptx_kernelcc @two_structs(
// CHECK-SAME: %[[R:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[W:[^:]*]]: !llvm.ptr
// CHECK-DAG: %[[PR:.*]] = llvm.addrspacecast %[[R]]
// CHECK-DAG: %[[PW:.*]] = llvm.addrspacecast %[[W]]
// CHECK-DAG: %[[SLOT:.*]] = llvm.alloca
// CHECK-DAG: "ptxcc.copy_param"(%[[PW]], %[[SLOT]])
// CHECK-DAG: %[[V:.*]] = "ptxcc.load_param"(%[[PR]]) {alignment = 4 : i64, offset = 4 : i64}
// CHECK: llvm.store %[[V]], %[[SLOT]]
llvm.func ptx_kernelcc @two_structs(%r: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %w: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %r[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.store %v, %w : i32, !llvm.ptr
  %x = llvm.load %w : !llvm.ptr -> i32
  llvm.store %x, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A GEP with a vector of indices yields a vector of pointers, which has no
// param-space form here: copy (the output stays valid IR).
// CHECK-LABEL: llvm.func ptx_kernelcc @vector_gep(
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK: llvm.getelementptr %[[SLOT]][%{{.*}}] : (!llvm.ptr, vector<2xi64>) -> vector<2x!llvm.ptr>, i32
llvm.func ptx_kernelcc @vector_gep(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i32>}, %v: vector<2xi64>, %other: vector<2x!llvm.ptr>, %out: !llvm.ptr) {
  %ps = llvm.getelementptr %s[%v] : (!llvm.ptr, vector<2xi64>) -> vector<2x!llvm.ptr>, i32
  %same = llvm.icmp "eq" %ps, %other : vector<2x!llvm.ptr>
  llvm.store %same, %out : vector<2xi1>, !llvm.ptr
  llvm.return
}

// -----

// The local copy is as aligned as the code may assume (llvm.align = 16),
// even when the .param itself is less aligned (alignstack = 4); the copy
// reads param space with the alignment it has.
// CHECK-LABEL: llvm.func ptx_kernelcc @copy_alignment(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<4 x i32> {alignment = 16 : i64}
// CHECK-NEXT: "ptxcc.copy_param"(%{{.*}}, %[[SLOT]]) {alignment = 4 : i64, size = 16 : i64}
llvm.func ptx_kernelcc @copy_alignment(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i32>, llvm.align = 16 : i64, llvm.alignstack = 4 : i64}, %x: i32, %out: !llvm.ptr) {
  llvm.store %x, %s : i32, !llvm.ptr
  %v = llvm.load %s {alignment = 16 : i64} : !llvm.ptr -> vector<4xi32>
  llvm.store %v, %out : vector<4xi32>, !llvm.ptr
  llvm.return
}

// -----

// An empty struct that escapes gets a slot and nothing to copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @empty_struct(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<()>
// CHECK-NOT: "ptxcc.copy_param"
// CHECK: llvm.call @unknown_empty(%[[SLOT]])
llvm.func @unknown_empty(!llvm.ptr)
llvm.func ptx_kernelcc @empty_struct(%s: !llvm.ptr {llvm.byval = !llvm.struct<()>}) {
  llvm.call @unknown_empty(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// An alignment assumption about the struct is dropped rather than moved to
// the param-space view (where llc would not recognise it and would copy
// the struct behind the view's back).
// CHECK-LABEL: llvm.func ptx_kernelcc @assume_aligned(
// CHECK-NOT: llvm.intr.assume
// CHECK: llvm.load %{{.*}} : !llvm.ptr<101> -> i32
// PTX-LABEL: .entry assume_aligned(
// PTX-NOT: .local
// PTX: ld.param.b32
llvm.func ptx_kernelcc @assume_aligned(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i32>, llvm.align = 16 : i64}, %i: i64, %out: !llvm.ptr) {
  %true = llvm.mlir.constant(true) : i1
  %c16 = llvm.mlir.constant(16 : i64) : i64
  llvm.intr.assume %true ["align"(%s, %c16 : !llvm.ptr, i64)] : i1
  %e = llvm.getelementptr %s[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>
  %v = llvm.load %e : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A byval parameter is never null: a comparison of it with null, and a
// conversion to an integer whose only uses compare it with zero, fold to
// constants (eq: false, ne: true) and escape nothing, even without
// cvta.param; llc's own folding does the same before its lowering (fuzz seed
// 106699 copied the struct: 8 -> 16 local bytes). A conversion with any
// other use still copies (escape_ptrtoint above).
// SM60-LABEL: llvm.func ptx_kernelcc @null_test(
// SM60-NOT: llvm.alloca
// SM60: llvm.return
// CHECK-LABEL: llvm.func ptx_kernelcc @null_test(
// CHECK-NOT: llvm.ptrtoint
// CHECK-NOT: llvm.icmp
// CHECK-NOT: llvm.alloca
// CHECK-DAG: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-DAG: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK-DAG: llvm.store %[[TRUE]], %{{.*}} : i1, !llvm.ptr
// CHECK-DAG: llvm.store %[[FALSE]], %{{.*}} : i1, !llvm.ptr
// CHECK: llvm.return
// PTX-LABEL: .entry null_test(
// PTX-NOT: .local
// PTX: ld.param.b32
// PTX: ret;
llvm.func ptx_kernelcc @null_test(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %f = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %i = llvm.ptrtoint %f : !llvm.ptr to i64
  %ne = llvm.icmp "ne" %i, %zero : i64
  %eq = llvm.icmp "eq" %zero, %i : i64
  llvm.store %ne, %out : i1, !llvm.ptr
  llvm.store %eq, %out : i1, !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  %isnull = llvm.icmp "eq" %s, %null : !llvm.ptr
  llvm.store %isnull, %out : i1, !llvm.ptr
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// A comparison with anything but zero keeps the conversion: copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @ptrtoint_compared(
// CHECK: "ptxcc.copy_param"
// CHECK: llvm.ptrtoint
// CHECK: llvm.icmp "ult"
llvm.func ptx_kernelcc @ptrtoint_compared(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %i = llvm.ptrtoint %s : !llvm.ptr to i64
  %lt = llvm.icmp "ult" %i, %zero : i64
  llvm.store %lt, %out : i1, !llvm.ptr
  llvm.return
}

// -----

// A callee that only compares the address with null captures nothing: the
// struct is read through its generic address (cast-only), not copied.
// CHECK-LABEL: llvm.func ptx_kernelcc @null_checked_callee(
// CHECK-NOT: llvm.alloca
// CHECK: "ptxcc.param_to_generic"
// CHECK: llvm.call @checks_null(
llvm.func @checks_null(%p: !llvm.ptr) -> i32 {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %i = llvm.ptrtoint %p : !llvm.ptr to i64
  %null = llvm.icmp "eq" %i, %zero : i64
  %v = llvm.load %p : !llvm.ptr -> i32
  %z = llvm.zext %null : i1 to i32
  %r = llvm.add %v, %z : i32
  llvm.return %r : i32
}
llvm.func ptx_kernelcc @null_checked_callee(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %r = llvm.call @checks_null(%s) : (!llvm.ptr) -> i32
  llvm.store %r, %out : i32, !llvm.ptr
  llvm.return
}
