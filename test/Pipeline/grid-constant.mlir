// Seed 003 "address-space preservation": a kernel's byval parameter stays in
// param space (!llvm.ptr<101>) to the end of --ptxcc-pipeline unless its
// address escapes. Read-only kernels read every field through a ptr<101>
// value, with no cast back to generic and no local copy, and the PTX reads
// the kernel's own .param with ld.param (no cvta.param, no .local). An
// address that escapes to a callee that only reads it is the one cast back
// to generic (cvta.param; the parameter becomes nvvm.grid_constant, the
// kernel nvvm.kernel). An address that escapes where it may be written (a
// callee with no read-only promise, an address stored to memory) gets a
// local copy on every chip: a grid constant is read-only, so handing out its
// param-space address there would let a write fault. Below sm_70 there is
// no cvta.param, so even a read-only escape gets a local copy.
//
// RUN: %ptxcc-opt %s --ptxcc-pipeline | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX
// llc -O0 runs no InferAddressSpaces: the param-space reads and the one
// cvta.param are already in ptxcc's output.
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -O0 | FileCheck %s --check-prefix=PTXO0
// RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_60' | FileCheck %s --check-prefix=SM60
// RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_60' | %to-llvmir | llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_60 | FileCheck %s --check-prefix=SM60PTX
//
// Prefixes: CHECK (ptxcc's output, sm_90), PTX / PTXO0 (llc -O2 / -O0 on
// it), SM60 / SM60PTX (chip=sm_60). Every kernel has a label in every prefix
// that checks it, so each CHECK-NOT stops at the next kernel.

// Constant-offset field reads through GEPs: loads at byte offsets 4 and 16
// of the param-space view. No cast back to generic, so no grid constant is
// needed either (and none is added: llc's NVPTXLowerArgs sees only
// param-space loads and copies nothing).
// CHECK-LABEL: llvm.func ptx_kernelcc @read_fields(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(i32, i32, f32, i64)>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<101>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[A:[0-9]+]] = llvm.getelementptr %[[P]][4] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: llvm.load %[[A]] {{.*}}: !llvm.ptr<101> -> i32
// CHECK-NEXT: %[[B:[0-9]+]] = llvm.getelementptr %[[P]][16] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: llvm.load %[[B]] {{.*}}: !llvm.ptr<101> -> i64
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// PTX-LABEL: .entry read_fields(
// PTX-NOT: {{cvta.param|\.local}}
// PTX: ld.param.s32 %rd{{[0-9]+}}, [read_fields_param_0+4];
// PTX-NEXT: ld.param.b64 %rd{{[0-9]+}}, [read_fields_param_0+16];
// PTX-NOT: {{cvta.param|\.local}}
// PTX: ret;
// PTXO0-LABEL: .entry read_fields(
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ld.param.s32 %rd{{[0-9]+}}, [read_fields_param_0+4];
// PTXO0-NEXT: ld.param.b64 %rd{{[0-9]+}}, [read_fields_param_0+16];
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ret;
// SM60-LABEL: llvm.func ptx_kernelcc @read_fields(
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60-NOT: llvm.alloca
// SM60: llvm.load %{{[0-9]+}} {{.*}}: !llvm.ptr<101> -> i32
// SM60: llvm.load %{{[0-9]+}} {{.*}}: !llvm.ptr<101> -> i64
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60-NOT: llvm.alloca
// SM60: llvm.return
// SM60PTX-LABEL: .entry read_fields(
// SM60PTX-NOT: .local
// SM60PTX: ld.param.s32 %rd{{[0-9]+}}, [read_fields_param_0+4];
// SM60PTX-NEXT: ld.param.b64 %rd{{[0-9]+}}, [read_fields_param_0+16];
// SM60PTX-NOT: .local
// SM60PTX: ret;
llvm.func ptx_kernelcc @read_fields(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32, f32, i64)>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %a = llvm.getelementptr inbounds %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, f32, i64)>
  %v = llvm.load %a {alignment = 4 : i64} : !llvm.ptr -> i32
  %b = llvm.getelementptr inbounds %s[0, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32, f32, i64)>
  %w = llvm.load %b {alignment = 8 : i64} : !llvm.ptr -> i64
  %v64 = llvm.sext %v : i32 to i64
  %r = llvm.add %v64, %w : i64
  llvm.store %r, %out {alignment = 8 : i64} : i64, !llvm.ptr
  llvm.return
}

// A field read through a run-time index: the GEP is rebuilt on the
// param-space view; llc reads through a register holding the .param's
// address (mov.b64 %rd, dyn_index_param_0), not a generic one.
// CHECK-LABEL: llvm.func ptx_kernelcc @dyn_index(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.struct<(i64, array<8 x i32>)>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<101>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[A:[0-9]+]] = llvm.getelementptr inbounds %[[P]][0, 1, %arg2] : (!llvm.ptr<101>, i64) -> !llvm.ptr<101>
// CHECK-NEXT: llvm.load %[[A]] {{.*}}: !llvm.ptr<101> -> i32
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// PTX-LABEL: .entry dyn_index(
// PTX-NOT: {{cvta.param|\.local}}
// PTX: mov.b64 %rd[[BASE:[0-9]+]], dyn_index_param_0;
// PTX-NOT: {{cvta.param|\.local}}
// PTX: add.s64 %rd[[A:[0-9]+]], %rd[[BASE]], %rd{{[0-9]+}};
// PTX-NEXT: ld.param.b32 %r{{[0-9]+}}, [%rd[[A]]+8];
// PTX-NOT: {{cvta.param|\.local}}
// PTX: ret;
// PTXO0-LABEL: .entry dyn_index(
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+8];
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ret;
// SM60-LABEL: llvm.func ptx_kernelcc @dyn_index(
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60-NOT: llvm.alloca
// SM60: llvm.load %{{[0-9]+}} {{.*}}: !llvm.ptr<101> -> i32
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60-NOT: llvm.alloca
// SM60: llvm.return
// SM60PTX-LABEL: .entry dyn_index(
// SM60PTX-NOT: .local
// SM60PTX: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}+8];
// SM60PTX-NOT: .local
// SM60PTX: ret;
llvm.func ptx_kernelcc @dyn_index(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i64, array<8 x i32>)>, llvm.align = 8 : i64}, %out: !llvm.ptr, %i: i64) {
  %a = llvm.getelementptr inbounds %s[0, 1, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i64, array<8 x i32>)>
  %v = llvm.load %a {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// The select of two fields' addresses: lower-struct-args takes the
// cast-only path (the parameter becomes a grid constant), and
// memory-space-opt moves the select into param space, so the cast back to
// generic is gone again: the select and the load are on ptr<101>, and llc
// reads with ld.param through a register, with no cvta.param.
// CHECK-LABEL: llvm.func ptx_kernelcc @select_field(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<101>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: %[[F0:[0-9]+]] = llvm.getelementptr inbounds %[[P]][0, 0] : (!llvm.ptr<101>) -> !llvm.ptr<101>
// CHECK-NEXT: %[[F1:[0-9]+]] = llvm.getelementptr inbounds %[[P]][0, 1] : (!llvm.ptr<101>) -> !llvm.ptr<101>
// CHECK-NEXT: %[[S:[0-9]+]] = llvm.select %arg2, %[[F0]], %[[F1]] : i1, !llvm.ptr<101>
// CHECK-NEXT: llvm.load %[[S]] {{.*}}: !llvm.ptr<101> -> i32
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// PTX-LABEL: .entry select_field(
// PTX-NOT: {{cvta.param|\.local}}
// PTX: mov.b64 %rd[[BASE:[0-9]+]], select_field_param_0;
// PTX-NOT: {{cvta.param|\.local}}
// PTX: selp.b64 %rd[[OFF:[0-9]+]], 0, 4, %p{{[0-9]+}};
// PTX-NEXT: add.s64 %rd[[A:[0-9]+]], %rd[[BASE]], %rd[[OFF]];
// PTX-NEXT: ld.param.b32 %r{{[0-9]+}}, [%rd[[A]]];
// PTX-NOT: {{cvta.param|\.local}}
// PTX: ret;
// PTXO0-LABEL: .entry select_field(
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ld.param.b32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// PTXO0-NOT: {{cvta.param|\.local}}
// PTXO0: ret;
// (Not checked at sm_60: there lower-struct-args sends the select down the
// copy path, since its cast-only path needs cvta.param, although the select
// needs no generic address. The labels only end the previous kernel.)
// SM60-LABEL: llvm.func ptx_kernelcc @select_field(
// SM60PTX-LABEL: .entry select_field(
llvm.func ptx_kernelcc @select_field(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr, %c: i1) {
  %a = llvm.getelementptr inbounds %s[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %b = llvm.getelementptr inbounds %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %p = llvm.select %c, %a, %b : i1, !llvm.ptr
  %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// The address escapes to a callee that only reads it (readonly, nocapture):
// the one cast back to generic, only for the call; the kernel's own field
// read stays a param-space load. In PTX, cvta.param.u64 of the .param's
// address is what the call gets; no copy. At sm_60 (no cvta.param) the
// struct is copied to local memory and the call gets the copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @escape_ro(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(i32, i32)>, nvvm.grid_constant}
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK-NOT: llvm.alloca
// CHECK: %[[P:[0-9]+]] = llvm.addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:[0-9]+]] = llvm.addrspacecast %[[P]] : !llvm.ptr<101> to !llvm.ptr
// CHECK-NEXT: %[[A:[0-9]+]] = llvm.getelementptr %[[P]][4] : (!llvm.ptr<101>) -> !llvm.ptr<101>, i8
// CHECK-NEXT: llvm.load %[[A]] {{.*}}: !llvm.ptr<101> -> i32
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @sink_ro(%[[G]]) : (!llvm.ptr) -> ()
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
// PTX-LABEL: .entry escape_ro(
// PTX-NOT: .local
// PTX: mov.b64 %rd[[BASE:[0-9]+]], escape_ro_param_0;
// PTX: cvta.param.u64 %rd[[G:[0-9]+]], %rd[[BASE]];
// PTX: ld.param.b32 %r{{[0-9]+}}, [escape_ro_param_0+4];
// PTX: st.param.b64 [param0], %rd[[G]];
// PTX-NEXT: call.uni sink_ro, (param0);
// PTX-NOT: .local
// PTX: ret;
// PTXO0-LABEL: .entry escape_ro(
// PTXO0-NOT: .local
// PTXO0: cvta.param.u64
// PTXO0-NOT: .local
// PTXO0: call.uni sink_ro, (param0);
// PTXO0-NOT: .local
// PTXO0: ret;
// SM60-LABEL: llvm.func ptx_kernelcc @escape_ro(
// SM60-SAME: %arg0: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(i32, i32)>}
// SM60-NOT: nvvm.
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: %[[SLOT:[0-9]+]] = llvm.alloca %{{[0-9]+}} x !llvm.struct<(i32, i32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.call @sink_ro(%[[SLOT]]) : (!llvm.ptr) -> ()
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.return
// SM60PTX-LABEL: .entry escape_ro(
// SM60PTX-NOT: cvta.param
// SM60PTX: .local .align 4 .b8 __local_depot{{[0-9]+}}[8];
// SM60PTX-NOT: cvta.param
// SM60PTX: call.uni sink_ro, (param0);
// SM60PTX-NOT: cvta.param
// SM60PTX: ret;
llvm.func @sink_ro(!llvm.ptr {llvm.readonly, llvm.nocapture})
llvm.func ptx_kernelcc @escape_ro(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %b = llvm.getelementptr inbounds %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  %v = llvm.load %b {alignment = 4 : i64} : !llvm.ptr -> i32
  llvm.store %v, %out {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.call @sink_ro(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// The address escapes to a callee that may write through it (@sink has no
// readonly/nocapture): a local copy even at sm_90, the call gets the copy,
// no grid constant, no cast back to generic, no cvta.param.
// CHECK-LABEL: llvm.func ptx_kernelcc @escape_call(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(i32, i32)>}
// CHECK-NOT: nvvm.
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: %[[SLOT:[0-9]+]] = llvm.alloca %{{[0-9]+}} x !llvm.struct<(i32, i32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: llvm.call @sink(%[[SLOT]]) : (!llvm.ptr) -> ()
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: llvm.return
// PTX-LABEL: .entry escape_call(
// PTX-NOT: cvta.param
// PTX: .local .align 4 .b8 __local_depot{{[0-9]+}}[8];
// PTX-NOT: cvta.param
// PTX: st.local.b32
// PTX-NOT: cvta.param
// PTX: call.uni sink, (param0);
// PTX-NOT: cvta.param
// PTX: ret;
// SM60-LABEL: llvm.func ptx_kernelcc @escape_call(
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: %[[SLOT:[0-9]+]] = llvm.alloca
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.call @sink(%[[SLOT]]) : (!llvm.ptr) -> ()
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.return
llvm.func @sink(!llvm.ptr)
llvm.func ptx_kernelcc @escape_call(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}) {
  llvm.call @sink(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// The address of a field is stored to global memory: a local copy, and the
// stored address is the copy's field.
// CHECK-LABEL: llvm.func ptx_kernelcc @escape_store(
// CHECK-SAME: %arg0: !llvm.ptr {llvm.align = 4 : i64, llvm.byval = !llvm.struct<(i32, i32)>}
// CHECK-NOT: nvvm.
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: %[[SLOT:[0-9]+]] = llvm.alloca %{{[0-9]+}} x !llvm.struct<(i32, i32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: %[[F:[0-9]+]] = llvm.getelementptr inbounds %[[SLOT]][0, 1] : (!llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: llvm.store %[[F]], %{{[0-9]+}} {{.*}}: !llvm.ptr, !llvm.ptr<1>
// CHECK-NOT: !llvm.ptr<101> to !llvm.ptr
// CHECK: llvm.return
// PTX-LABEL: .entry escape_store(
// PTX-NOT: cvta.param
// PTX: .local .align 4 .b8 __local_depot{{[0-9]+}}[8];
// PTX-NOT: cvta.param
// PTX: st.global.b64
// PTX-NOT: cvta.param
// PTX: ret;
// SM60-LABEL: llvm.func ptx_kernelcc @escape_store(
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.alloca
// SM60-NOT: !llvm.ptr<101> to !llvm.ptr
// SM60: llvm.return
llvm.func ptx_kernelcc @escape_store(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %out: !llvm.ptr) {
  %b = llvm.getelementptr inbounds %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
  llvm.store %b, %out {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  llvm.return
}
