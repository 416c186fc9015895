// lower-alloca and dynamic allocas: left to llc by default where the target
// has PTX's own alloca (sm_52 and PTX 7.3: llc lowers the dynamic alloca to
// it); an error at the alloca on an older target (the function is left
// unchanged); with dynamic-alloca-size=N, seed 004's conservative maximum:
// N bytes hoisted to the entry block, aligned as the element was.
// RUN: %ptxcc-opt %s --split-input-file --verify-diagnostics --lower-alloca=chip=sm_50
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca=dynamic-alloca-size=4096 | FileCheck %s
// RUN: %ptxcc-opt %s --split-input-file --lower-alloca | FileCheck %s --check-prefix=LEFT
// RUN: sed -n '/^llvm.func @vla/,/^llvm.func @use/p' %s > %t.vla.mlir
// RUN: %ptxcc-opt %t.vla.mlir --ptxcc-pipeline | %to-llvmir | %llc-sm90 | FileCheck %s --check-prefix=PTX

// LEFT-LABEL: llvm.func @vla(
// LEFT: llvm.alloca %{{.*}} x f64 : (i64) -> !llvm.ptr
// LEFT-NOT: addrspacecast
// LEFT: llvm.return
// PTX-LABEL: .visible .func vla(
// PTX: alloca.u64
// PTX: cvta.local.u64
// CHECK-LABEL: llvm.func @vla(
// CHECK: %[[N:.*]] = llvm.mlir.constant(4096 : i64) : i64
// CHECK-NEXT: %[[A:.*]] = llvm.alloca %[[N]] x i8 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[L]] : !llvm.ptr<5> to !llvm.ptr
// CHECK: llvm.store %{{.*}}, %[[G]] : f64, !llvm.ptr
llvm.func @vla(%n: i64, %x: f64) {
  llvm.br ^body
^body:
  // expected-error@+1 {{dynamic alloca: sm_50, PTX 4.0 has no PTX alloca (sm_52 and PTX 7.3 or later), so the local frame must have a fixed size; make the size a constant, target a newer chip, or pass 'dynamic-alloca-size=N' to lower-alloca to reserve N bytes for it}}
  %a = llvm.alloca %n x f64 : (i64) -> !llvm.ptr
  llvm.store %x, %a : f64, !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @use(!llvm.ptr)

// -----

// Every dynamic alloca is reported, not just the first.
// CHECK-LABEL: llvm.func @two(
llvm.func @two(%n: i32, %m: i32) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %fixed = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  // expected-error@+1 {{dynamic alloca}}
  %a = llvm.alloca %n x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  // expected-error@+1 {{dynamic alloca}}
  %b = llvm.alloca %m x i16 : (i32) -> !llvm.ptr
  llvm.return
}

// -----

// A dynamic alloca in the entry block is replaced where it stands: its users
// follow it in that block. (It used to move before the entry terminator,
// after its users: "operand does not dominate this use".)
// CHECK-LABEL: llvm.func @entry_vla(
// CHECK: %[[N:.*]] = llvm.mlir.constant(4096 : i64) : i64
// CHECK-NEXT: %[[A:.*]] = llvm.alloca %[[N]] x i8 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[L:.*]] = llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
// CHECK-NEXT: %[[G:.*]] = llvm.addrspacecast %[[L]] : !llvm.ptr<5> to !llvm.ptr
// CHECK-NEXT: llvm.store %{{.*}}, %[[G]] : i32, !llvm.ptr
// CHECK-NEXT: llvm.call @use(%[[G]])
llvm.func @entry_vla(%n: i64, %x: i32) {
  // expected-error@+1 {{dynamic alloca}}
  %a = llvm.alloca %n x i32 : (i64) -> !llvm.ptr
  llvm.store %x, %a : i32, !llvm.ptr
  llvm.call @use(%a) : (!llvm.ptr) -> ()
  llvm.br ^next
^next:
  llvm.return
}
llvm.func @use(!llvm.ptr)
