// lower-struct-args, reads: a kernel's byval struct that is only read stays
// in param space. Constant-offset loads become ptxcc.load_param at the byte
// offset the ABI model computes (GEP chains of any depth folded into one
// offset); reads that are not constant use param-space pointers. No copy,
// no cast, and the launch ABI is unchanged (the parameter stays a byval
// pointer).
// RUN: %ptxcc-opt %s --split-input-file --lower-struct-args | FileCheck %s
// The whole chain is valid PTX, with plain ld.param and no local memory:
// RUN: %ptxcc-opt %s --split-input-file --ptxcc-pipeline -o %t.mlir
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX

// Seed 002's worked example: %S = {f64, i8, [4 x i32]} is read at offsets
// 0, 8 and 12 + 3 * 4 = 24. The loads know the param alignment (8) at
// offsets 0, 8 and 24.
// CHECK-LABEL: llvm.func ptx_kernelcc @seed002_offsets(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<"S", (f64, i8, array<4 x i32>)>}
// CHECK-NEXT: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[F:.*]] = "ptxcc.load_param"(%[[P]]) {alignment = 8 : i64, offset = 0 : i64} : (!llvm.ptr<101>) -> f64
// CHECK-NEXT: %[[B:.*]] = "ptxcc.load_param"(%[[P]]) {alignment = 8 : i64, offset = 8 : i64} : (!llvm.ptr<101>) -> i8
// CHECK-NEXT: %[[A3:.*]] = "ptxcc.load_param"(%[[P]]) {alignment = 8 : i64, offset = 24 : i64} : (!llvm.ptr<101>) -> i32
// CHECK-NOT: ptxcc.
// CHECK: llvm.store %[[F]]
// CHECK-NEXT: llvm.store %[[B]]
// CHECK-NEXT: llvm.store %[[A3]]
// CHECK-NEXT: llvm.return
// PTX-LABEL: .entry seed002_offsets(
// PTX-NOT: .local
// PTX-DAG: ld.param.b64 %rd{{[0-9]+}}, [seed002_offsets_param_0];
// PTX-DAG: ld.param.b8 %rs{{[0-9]+}}, [seed002_offsets_param_0+8];
// PTX-DAG: ld.param.b32 %r{{[0-9]+}}, [seed002_offsets_param_0+24];
// PTX: ret;
llvm.func ptx_kernelcc @seed002_offsets(%s: !llvm.ptr {llvm.byval = !llvm.struct<"S", (f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %pf = llvm.getelementptr %s[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"S", (f64, i8, array<4 x i32>)>
  %f = llvm.load %pf : !llvm.ptr -> f64
  %pb = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"S", (f64, i8, array<4 x i32>)>
  %b = llvm.load %pb : !llvm.ptr -> i8
  %pa = llvm.getelementptr %s[0, 2, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"S", (f64, i8, array<4 x i32>)>
  %a3 = llvm.load %pa : !llvm.ptr -> i32
  %out1 = llvm.getelementptr %out[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %out2 = llvm.getelementptr %out[12] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.store %f, %out : f64, !llvm.ptr
  llvm.store %b, %out1 : i8, !llvm.ptr
  llvm.store %a3, %out2 : i32, !llvm.ptr
  llvm.return
}

// -----

// Each use is rewritten on its own (seed 002's work list of use edges): one
// GEP feeding three loads gives three load_params, and a second GEP on top
// of it (a constant index given as an SSA constant, as the LLVM IR importer
// writes them) is folded into the offset.
// CHECK-LABEL: llvm.func ptx_kernelcc @gep_feeds_three_loads(
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK-DAG: "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 4 : i64} : (!llvm.ptr<101>) -> i32
// CHECK-DAG: "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 8 : i64} : (!llvm.ptr<101>) -> i32
// CHECK-DAG: "ptxcc.load_param"(%[[P]]) {alignment = 4 : i64, offset = 4 : i64} : (!llvm.ptr<101>) -> vector<2xi32>
// CHECK-NOT: llvm.getelementptr %[[P]]
// CHECK: llvm.return
llvm.func ptx_kernelcc @gep_feeds_three_loads(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, array<2 x i32>)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %arr = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<2 x i32>)>
  %x = llvm.load %arr : !llvm.ptr -> i32
  %second = llvm.getelementptr %arr[%c1] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %y = llvm.load %second : !llvm.ptr -> i32
  %z = llvm.load %arr : !llvm.ptr -> vector<2xi32>
  %out1 = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %out2 = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, vector<2xi32>
  llvm.store %x, %out : i32, !llvm.ptr
  llvm.store %y, %out1 : i32, !llvm.ptr
  llvm.store %z, %out2 : vector<2xi32>, !llvm.ptr
  llvm.return
}

// -----

// Nested aggregates fold to one offset: field 1 of {i32, {i64, [2 x {i16,
// i8}]}} is at 8, its array at 8 more, element 1 at 4 more, its i8 at 2
// more: 22. The alignment known there is 2.
// CHECK-LABEL: llvm.func ptx_kernelcc @nested(
// CHECK: "ptxcc.load_param"(%{{.*}}) {alignment = 2 : i64, offset = 22 : i64} : (!llvm.ptr<101>) -> i8
// PTX-LABEL: .entry nested(
// PTX: ld.param.b8 %rs{{[0-9]+}}, [nested_param_0+22];
llvm.func ptx_kernelcc @nested(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, struct<(i64, array<2 x struct<(i16, i8)>>)>)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %p = llvm.getelementptr %s[0, 1, 1, 1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, struct<(i64, array<2 x struct<(i16, i8)>>)>)>
  %v = llvm.load %p : !llvm.ptr -> i8
  llvm.store %v, %out : i8, !llvm.ptr
  llvm.return
}

// -----

// A dynamic index reads param space directly: the GEP is rebuilt on the
// param-space view and the load reads !llvm.ptr<101>. No copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @dynamic_index(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{.*}}llvm.byval{{.*}}}, %[[I:[^:]*]]: i64
// CHECK-NEXT: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[E:.*]] = llvm.getelementptr %[[P]][0, 2, %[[I]]] : (!llvm.ptr<101>, i64) -> !llvm.ptr<101>
// CHECK-NEXT: %{{.*}} = llvm.load %[[E]] : !llvm.ptr<101> -> i32
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// PTX-LABEL: .entry dynamic_index(
// PTX-NOT: .local
// PTX: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+12];
llvm.func ptx_kernelcc @dynamic_index(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64}, %i: i64, %out: !llvm.ptr) {
  %p = llvm.getelementptr %s[0, 2, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(f64, i8, array<4 x i32>)>
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// memcpy from the parameter is a read: with a constant length it becomes a
// copy_param into the destination (vectorised by the conversion, where llc
// alone copies byte by byte); with a dynamic length the memcpy reads param
// space. Nothing is copied to local memory.
// CHECK-LABEL: llvm.func ptx_kernelcc @memcpy_from_param(
// CHECK-SAME: %[[S:[^:]*]]: !llvm.ptr {{{[^}]*}}}, %[[OUT:[^:]*]]: !llvm.ptr, %[[N:[^:]*]]: i64
// CHECK: %[[P:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<101>
// CHECK: "ptxcc.copy_param"(%[[P]], %[[OUT]]) {alignment = 16 : i64, size = 32 : i64} : (!llvm.ptr<101>, !llvm.ptr) -> ()
// CHECK-NEXT: "llvm.intr.memcpy"(%[[OUT]], %[[P]], %[[N]]) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr<101>, i64) -> ()
// CHECK-NOT: llvm.alloca
// PTX-LABEL: .entry memcpy_from_param(
// PTX-NOT: .local
// PTX: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [memcpy_from_param_param_0];
// PTX: ld.param.v4.b32 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [memcpy_from_param_param_0+16];
llvm.func ptx_kernelcc @memcpy_from_param(%s: !llvm.ptr {llvm.byval = !llvm.array<8 x i32>, llvm.align = 16 : i64}, %out: !llvm.ptr, %n: i64) {
  %len = llvm.mlir.constant(32 : i64) : i64
  "llvm.intr.memcpy"(%out, %s, %len) <{arg_attrs = [{llvm.align = 16 : i64}, {llvm.align = 16 : i64}, {}], isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  "llvm.intr.memcpy"(%out, %s, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// -----

// A param-space cast already in the input reads the parameter: it is
// replaced by the pass's own view, so only one cast remains.
// CHECK-LABEL: llvm.func ptx_kernelcc @existing_param_cast(
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[Q:.*]] = llvm.getelementptr %[[P]][4] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: llvm.load %[[Q]] : !llvm.ptr<101> -> i32
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.return
llvm.func ptx_kernelcc @existing_param_cast(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %p = llvm.addrspacecast %q : !llvm.ptr to !llvm.ptr<101>
  %v = llvm.load %p : !llvm.ptr<101> -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Kernels marked the MLIR way (nvvm.kernel) are kernels too.
// CHECK-LABEL: llvm.func @nvvm_kernel(
// CHECK: "ptxcc.load_param"(%{{.*}}) {alignment = 4 : i64, offset = 4 : i64} : (!llvm.ptr<101>) -> i32
llvm.func @nvvm_kernel(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %out: !llvm.ptr) attributes {nvvm.kernel} {
  %q = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// Device functions are not kernels: their byval parameters are left alone
// here (their calling convention is another pass's work).
// CHECK-LABEL: llvm.func @device_function(
// CHECK-NOT: ptxcc.
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> i32
llvm.func @device_function(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}) -> i32 {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A constant-offset load past the end of the struct (guarded here, so it
// may never run) is not an error: it reads param space like any
// non-constant read.
// CHECK-LABEL: llvm.func ptx_kernelcc @guarded_past_the_end(
// CHECK: %[[P:.*]] = llvm.addrspacecast
// CHECK: %[[Q:.*]] = llvm.getelementptr %[[P]][1] : (!llvm.ptr<101>) -> !llvm.ptr<101>, !llvm.struct<(i32, i32)>
// CHECK: llvm.load %[[Q]] : !llvm.ptr<101> -> i32
llvm.func ptx_kernelcc @guarded_past_the_end(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}, %c: i1, %out: !llvm.ptr) {
  llvm.cond_br %c, ^read, ^done
^read:
  %q = llvm.getelementptr %s[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %q : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.br ^done
^done:
  llvm.return
}

// -----

// Vector elements are packed: element 1 of vector<2xi24> is 3 bytes after
// element 0, at 8 + 3 = 11 (what llc computes too).
// CHECK-LABEL: llvm.func ptx_kernelcc @vector_element(
// CHECK: "ptxcc.load_param"(%{{.*}}) {alignment = 1 : i64, offset = 11 : i64} : (!llvm.ptr<101>) -> i24
llvm.func ptx_kernelcc @vector_element(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, vector<2xi24>)>}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %s[0, 1, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, vector<2xi24>)>
  %v = llvm.load %q : !llvm.ptr -> i24
  llvm.store %v, %out : i24, !llvm.ptr
  llvm.return
}

// -----

// byval on a pointer that is not generic is not the PTX kernel ABI: left
// alone.
// CHECK-LABEL: llvm.func ptx_kernelcc @global_byval(
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> i32
llvm.func ptx_kernelcc @global_byval(%s: !llvm.ptr<1> {llvm.byval = i32}, %out: !llvm.ptr) {
  %v = llvm.load %s : !llvm.ptr<1> -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}

// -----

// An atomic load only reads, and param memory does not change while the
// kernel runs: it stays a load from the param-space view, with its ordering
// (llc alone keeps it in param space too). It used to count as an escape
// and make a local copy: more local memory than llc alone (fuzz seeds 64,
// 248).
// CHECK-LABEL: llvm.func ptx_kernelcc @atomic_load(
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK: %[[F:.*]] = llvm.getelementptr %[[P]][0, 1] : (!llvm.ptr<101>) -> !llvm.ptr<101>
// CHECK: llvm.load %[[F]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr<101> -> i32
// PTX-LABEL: .entry atomic_load(
// PTX: ld.param.b32 %r{{[0-9]+}}, [atomic_load_param_0+4];
llvm.func ptx_kernelcc @atomic_load(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %q = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %q atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  llvm.return
}
