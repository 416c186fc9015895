// ptxcc-pipeline runs the passes that have landed (today lower-struct-args
// and the final conversion), with one set of options handed to each of
// them, and its output compiles with llc.
// RUN: %ptxcc-opt %s --ptxcc-pipeline | FileCheck %s
// RUN: %ptxcc-opt %s --ptxcc-pipeline='opt-byval=false' | FileCheck %s --check-prefix=OFF
// RUN: %ptxcc-opt %s --ptxcc-pipeline='chip=sm_60' | FileCheck %s --check-prefix=SM60
// RUN: %ptxcc-opt %s --ptxcc-pipeline='vector-copy=false' | FileCheck %s --check-prefix=SCALAR
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: llvm.func ptx_kernelcc @copy(
// CHECK-COUNT-2: llvm.load {{.*}} -> vector<4xi32>
// CHECK-NOT: ptxcc.
// SCALAR-LABEL: llvm.func ptx_kernelcc @copy(
// SCALAR-COUNT-4: llvm.load {{.*}} -> i64
// SCALAR-NOT: vector
// PTX-LABEL: .entry copy(
// PTX-COUNT-2: ld.param.v4.b32
// PTX-COUNT-2: st.local.v4.b32
llvm.func ptx_kernelcc @copy(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 16 : i64}) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<4 x i64> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 32 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %g = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  llvm.call @consume(%g) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @consume(!llvm.ptr)

// Plain byval IR: lower-struct-args decides (cast-only: @reads only reads),
// the conversion lowers its ops. The pipeline's opt-byval and chip reach
// lower-struct-args: opt-byval=false leaves the kernel alone, and sm_60 (no
// cvta.param) makes a copy.
// CHECK-LABEL: llvm.func ptx_kernelcc @escape(
// CHECK-SAME: nvvm.grid_constant
// CHECK-SAME: attributes {nvvm.kernel}
// CHECK: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<101>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<101> to !llvm.ptr
// CHECK-NEXT: llvm.call @reads(%[[G]])
// OFF-LABEL: llvm.func ptx_kernelcc @escape(
// OFF-SAME: %[[S:[^:]*]]: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>})
// OFF-NEXT: llvm.call @reads(%[[S]])
// SM60-LABEL: llvm.func ptx_kernelcc @escape(
// SM60-NOT: nvvm.grid_constant
// SM60: %[[SLOT:.*]] = llvm.alloca
// SM60: llvm.call @reads(%[[SLOT]])
// PTX-LABEL: .entry escape(
// PTX-NOT: .local
// PTX: cvta.param.u64
llvm.func @reads(!llvm.ptr {llvm.readonly, llvm.nocapture})
llvm.func ptx_kernelcc @escape(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>}) {
  llvm.call @reads(%s) : (!llvm.ptr) -> ()
  llvm.return
}

// A written struct whose copy llc's SROA breaks up: after the pipeline and
// llc only the field read through a volatile load stays in local memory, as
// with llc alone (fuzz seed 144: 16 bytes before the copy was made of
// integers).
// PTX-LABEL: .entry sroa_copy(
// PTX: .local .align 8 .b8 __local_depot{{[0-9]+}}[8];
llvm.func ptx_kernelcc @sroa_copy(%out: !llvm.ptr, %in: !llvm.ptr, %s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, struct<(f64, i64, i16, i16)>)>, llvm.align = 16 : i64}) {
  %p = llvm.getelementptr %s[0, 1, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, struct<(f64, i64, i16, i16)>)>
  %v = llvm.load volatile %p {alignment = 2 : i64} : !llvm.ptr -> i16
  %len = llvm.mlir.constant(32 : i64) : i64
  "llvm.intr.memcpy"(%s, %in, %len) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %q = llvm.getelementptr %s[0, 1, 3] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, struct<(f64, i64, i16, i16)>)>
  %w = llvm.load %q {alignment = 2 : i64} : !llvm.ptr -> i16
  %x = llvm.add %v, %w : i16
  llvm.store %x, %out : i16, !llvm.ptr
  llvm.return
}

// The copy of a written struct whose address is kept in a slot and read
// back (clang -O0 keeps every pointer so), or compared: llc's SROA still
// breaks it up once the copy is made field by field, and no local memory
// is left (fuzz seeds 2066, 2664: 16 to 328 bytes; 2772: a ptrtoint).
// PTX-LABEL: .entry spilled_copy(
// PTX-NOT: __local_depot
// PTX: ret;
llvm.func ptx_kernelcc @spilled_copy(%out: !llvm.ptr, %s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, f64, array<4 x i16>)>, llvm.align = 8 : i64}) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.ptr {alignment = 8 : i64} : (i32) -> !llvm.ptr
  llvm.store %s, %slot {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  %again = llvm.load %slot {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  %seven = llvm.mlir.constant(7 : i32) : i32
  llvm.store %seven, %again {alignment = 4 : i64} : i32, !llvm.ptr
  %address = llvm.ptrtoint %again : !llvm.ptr to i64
  %zero = llvm.mlir.constant(0 : i64) : i64
  %nonnull = llvm.icmp "ne" %address, %zero : i64
  %p = llvm.getelementptr %again[0, 2, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64, array<4 x i16>)>
  %v = llvm.load %p {alignment = 2 : i64} : !llvm.ptr -> i16
  %w = llvm.load %again {alignment = 4 : i64} : !llvm.ptr -> i32
  %x = llvm.zext %v : i16 to i32
  %y = llvm.add %x, %w : i32
  %z = llvm.select %nonnull, %y, %w : i1, i32
  llvm.store %z, %out : i32, !llvm.ptr
  llvm.return
}
