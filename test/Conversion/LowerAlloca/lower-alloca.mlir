// lower-alloca: each rule, one function per rule. Default form (what llc 22
// compiles correctly): the alloca stays generic, one cast gives its local
// view and one cast back to generic replaces the old result. With
// local-allocas=true: seed 004's alloca in address space 5.
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca=local-allocas=true | FileCheck %s --check-prefix=LOCAL
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca | %to-llvmir --split-input-file | FileCheck %s --check-prefix=LLVM
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca=hoist-allocas=true | FileCheck %s --check-prefix=HOIST

// An entry-block alloca: rewritten in place, same size operand.
// CHECK-LABEL: llvm.func @entry(
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[A:.*]] = llvm.alloca %[[ONE]] x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[L]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[G]][0, %{{.*}}]
// CHECK-NEXT: llvm.load %[[P]] : !llvm.ptr -> i32
// LOCAL-LABEL: llvm.func @entry(
// LOCAL-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// LOCAL-NEXT: %[[A:.*]] = llvm.alloca %[[ONE]] x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr<5>
// LOCAL-NEXT: %[[G:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr<5> to !llvm.ptr
// LOCAL-NEXT: llvm.getelementptr %[[G]][0, %{{.*}}]
// LLVM-LABEL: define i32 @entry(
// LLVM-NEXT: %[[A:.*]] = alloca [8 x i32], align 4
// LLVM-NEXT: %[[L:.*]] = addrspacecast ptr %[[A]] to ptr addrspace(5)
// LLVM-NEXT: addrspacecast ptr addrspace(5) %[[L]] to ptr
llvm.func @entry(%i: i64) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %c1 x !llvm.array<8 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<8 x i32>
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.return %v : i32
}

// -----

// A constant-size alloca in another block stays there, as llc alone gets
// it: llc's NVPTXAllocaHoisting moves it after its SROA has run, and moving
// it before let SROA split it otherwise (fuzz seed 11518: one byte more).
// With hoist-allocas=true (seed 004) it moves to the top of the entry
// block, with its own constant; its old constant goes when unused.
// CHECK-LABEL: llvm.func @hoist(
// CHECK-NEXT: llvm.cond_br
// CHECK: ^bb1:
// CHECK: %[[A:.*]] = llvm.alloca %{{.*}} x f64 : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[L]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: llvm.store %{{.*}}, %[[G]] : f64, !llvm.ptr
// HOIST-LABEL: llvm.func @hoist(
// HOIST-NEXT: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
// HOIST-NEXT: %[[A:.*]] = llvm.alloca %[[TWO]] x f64 : (i64) -> !llvm.ptr
// HOIST-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// HOIST-NEXT: %[[G:.*]] = llvm.addrspacecast %[[L]] : !llvm.ptr<5> to !llvm.ptr
// HOIST-NEXT: llvm.cond_br
// HOIST: ^bb1:
// HOIST-NEXT: llvm.store %{{.*}}, %[[G]] : f64, !llvm.ptr
// HOIST-NOT: llvm.alloca
// HOIST: llvm.return
llvm.func @hoist(%c: i1, %x: f64) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %two = llvm.mlir.constant(2 : i64) : i64
  %a = llvm.alloca %two x f64 : (i64) -> !llvm.ptr
  llvm.store %x, %a : f64, !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.br ^bb2
^bb2:
  llvm.return
}
llvm.func @use(!llvm.ptr)

// -----

// An alloca already in address space 5: llc 22.1 miscompiles those (it
// addresses them through the generic %SP and applies cvta.local again), so
// the default form makes it a generic alloca whose local view replaces it;
// with local-allocas=true (seed 004) it is left alone.
// CHECK-LABEL: llvm.func @explicit_local(
// CHECK: %[[A:.*]] = llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: llvm.store %{{.*}}, %[[L]] : i32, !llvm.ptr<5>
// LOCAL-LABEL: llvm.func @explicit_local(
// LOCAL: %[[A:.*]] = llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr<5>
// LOCAL-NEXT: llvm.store %{{.*}}, %[[A]] : i32, !llvm.ptr<5>
llvm.func @explicit_local(%v: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x i32 : (i32) -> !llvm.ptr<5>
  llvm.store %v, %a : i32, !llvm.ptr<5>
  llvm.return
}

// -----

// Allocas in other specific spaces are not stack slots of this frame: left
// alone.
// CHECK-LABEL: llvm.func @other_space(
// CHECK-NEXT: llvm.mlir.constant
// CHECK-NEXT: llvm.alloca %{{.*}} x i32 : (i32) -> !llvm.ptr<3>
// CHECK-NOT: addrspacecast
llvm.func @other_space() {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x i32 : (i32) -> !llvm.ptr<3>
  llvm.return
}

// -----

// Lifetime markers must name the alloca itself (LLVM's verifier rejects
// them on a cast); every other use takes the generic cast.
// CHECK-LABEL: llvm.func @lifetime(
// CHECK: %[[A:.*]] = llvm.alloca %{{.*}} x !llvm.array<4 x i32> : (i32) -> !llvm.ptr
// CHECK: %[[G:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: llvm.intr.lifetime.start %[[A]] : !llvm.ptr
// CHECK-NEXT: llvm.call @use(%[[G]])
// CHECK-NEXT: llvm.intr.lifetime.end %[[A]] : !llvm.ptr
// LLVM-LABEL: define void @lifetime(
// LLVM: call void @llvm.lifetime.start.p0(ptr %
llvm.func @lifetime() {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x !llvm.array<4 x i32> : (i32) -> !llvm.ptr
  llvm.intr.lifetime.start %a : !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.intr.lifetime.end %a : !llvm.ptr
  llvm.return
}
llvm.func @use(!llvm.ptr)

// -----

// A slot llc's SROA deletes altogether (only loaded and stored at constant
// offsets) gets no local view: llc would delete the view with the slot, and
// the round trip through the local space made SROA keep a byte of one (fuzz
// seed 11518). It stays where it is in the entry block (no op above it
// may become a loop).
// CHECK-LABEL: llvm.func @promotable(
// CHECK-NEXT: llvm.add
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: %[[A:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i32, f32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.store %{{.*}}, %[[A]] : i32, !llvm.ptr
llvm.func @promotable(%x: i32) -> i32 {
  %y = llvm.add %x, %x : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x !llvm.struct<(i32, f32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %y, %a : i32, !llvm.ptr
  %v = llvm.load %a : !llvm.ptr -> i32
  llvm.return %v : i32
}
