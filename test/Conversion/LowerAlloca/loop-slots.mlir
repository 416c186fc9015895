// lower-alloca, slots of blocks other than the entry block. llc's SROA only
// looks at the allocas of the entry block, and its NVPTXAllocaHoisting
// moves the others there after SROA has run. A slot SROA would delete
// (only loaded and stored whole, at constant offsets, in values that fill
// their bytes) moves to the end of the entry block now, before SROA, with
// no local view; with llvm-opt-after too (LLVM's SROA looks at the entry
// block alone as well). Left in its loop, llc forwarded its store to the
// load and kept the store, and ptxas kept a frame for it (fuzz seeds 5011
// and 5245: 0 bytes with llc alone, 8 with ptxcc).
// RUN: %ptxcc-opt %s --lower-alloca | FileCheck %s
// RUN: %ptxcc-opt %s --lower-alloca=llvm-opt-after=true | FileCheck %s --check-prefix=OPT
// What ptxas makes of it (ptxas 13.5, sm_90, -c), ptxcc's then llc alone's:
// RUN: %ptxcc-opt %s --ptxcc-pipeline | %to-llvmir | %llc-sm90 -o %t.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.ptx -o %t.o 2>&1 | FileCheck %s --check-prefix=SASS %}
// RUN: %to-llvmir %s | %llc-sm90 -o %t.llc.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90 -c -v %t.llc.ptx -o %t.llc.o 2>&1 | FileCheck %s --check-prefix=SASS-LLC %}

// (In the order ptxas lists the functions.)
// SASS-LABEL: Function properties for loop_slot_flag
// SASS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LABEL: Function properties for loop_slot_bool
// SASS-NEXT: 8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LABEL: Function properties for loop_slot
// SASS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LLC-LABEL: Function properties for loop_slot_flag
// SASS-LLC-NEXT: 8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LLC-LABEL: Function properties for loop_slot_bool
// SASS-LLC-NEXT: 8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-LLC-LABEL: Function properties for loop_slot
// SASS-LLC-NEXT: 8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// CHECK-LABEL: llvm.func ptx_kernelcc @loop_slot(
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[S:.*]] = llvm.alloca %[[ONE]] x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: llvm.br ^bb1
// CHECK: ^bb1(
// CHECK-NOT: llvm.alloca
// CHECK-NOT: llvm.addrspacecast
// CHECK: llvm.store %{{.*}}, %[[S]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: llvm.load %[[S]] {alignment = 4 : i64} : !llvm.ptr -> i32
// OPT-LABEL: llvm.func ptx_kernelcc @loop_slot(
// OPT: %[[S:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
// OPT-NEXT: llvm.br ^bb1
// OPT: ^bb1(
// OPT-NOT: llvm.alloca
// OPT: llvm.store %{{.*}}, %[[S]]
llvm.func ptx_kernelcc @loop_slot(%out: !llvm.ptr<1>, %n: i32) {
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.br ^bb1(%zero, %zero : i32, i32)
^bb1(%i: i32, %acc: i32):
  %one = llvm.mlir.constant(1 : i32) : i32
  %s = llvm.alloca %one x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.store %i, %s {alignment = 4 : i64} : i32, !llvm.ptr
  %l = llvm.load %s {alignment = 4 : i64} : !llvm.ptr -> i32
  %m = llvm.mul %acc, %n : i32
  %acc2 = llvm.add %m, %l : i32
  %i2 = llvm.add %i, %one : i32
  %more = llvm.icmp "slt" %i2, %n : i32
  llvm.cond_br %more, ^bb1(%i2, %acc2 : i32, i32), ^bb2
^bb2:
  llvm.store %acc2, %out {alignment = 4 : i64} : i32, !llvm.ptr<1>
  llvm.return
}

// The counter-case: a byte stored and read back as an i1. SROA converts
// only between values of one bit width and keeps such a slot, so it stays
// in its block as llc alone gets it (moved, SROA made a byte slot of it
// that ptxas kept as well: fuzz seed 5059). An i1 stored and read back as
// an i1 moves (@loop_slot_flag). The slot of another block that escapes
// stays too (lower-alloca.mlir's @hoist).
// CHECK-LABEL: llvm.func ptx_kernelcc @loop_slot_bool(
// CHECK: ^bb1(
// CHECK: %[[S:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 1 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: llvm.addrspacecast %[[S]] : !llvm.ptr to !llvm.ptr<5>
// OPT-LABEL: llvm.func ptx_kernelcc @loop_slot_bool(
// OPT: ^bb1(
// OPT: llvm.alloca %{{.*}} x i8
llvm.func ptx_kernelcc @loop_slot_bool(%out: !llvm.ptr<1>, %n: i32, %b: i8) {
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.br ^bb1(%zero, %zero : i32, i32)
^bb1(%i: i32, %acc: i32):
  %one = llvm.mlir.constant(1 : i32) : i32
  %s = llvm.alloca %one x i8 {alignment = 1 : i64} : (i32) -> !llvm.ptr
  llvm.store %b, %s {alignment = 1 : i64} : i8, !llvm.ptr
  %l = llvm.load %s {alignment = 1 : i64} : !llvm.ptr -> i1
  %z = llvm.zext %l : i1 to i32
  %m = llvm.mul %acc, %n : i32
  %acc2 = llvm.add %m, %z : i32
  %i2 = llvm.add %i, %one : i32
  %more = llvm.icmp "slt" %i2, %n : i32
  llvm.cond_br %more, ^bb1(%i2, %acc2 : i32, i32), ^bb2
^bb2:
  llvm.store %acc2, %out {alignment = 4 : i64} : i32, !llvm.ptr<1>
  llvm.return
}

// CHECK-LABEL: llvm.func ptx_kernelcc @loop_slot_flag(
// CHECK: %[[S:.*]] = llvm.alloca %{{.*}} x i1 {alignment = 1 : i64} : (i32) -> !llvm.ptr
// CHECK-NEXT: llvm.br ^bb1
// CHECK: ^bb1(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.store %{{.*}}, %[[S]] {alignment = 1 : i64} : i1, !llvm.ptr
llvm.func ptx_kernelcc @loop_slot_flag(%out: !llvm.ptr<1>, %n: i32, %b: i1) {
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.br ^bb1(%zero, %zero : i32, i32)
^bb1(%i: i32, %acc: i32):
  %one = llvm.mlir.constant(1 : i32) : i32
  %s = llvm.alloca %one x i1 {alignment = 1 : i64} : (i32) -> !llvm.ptr
  llvm.store %b, %s {alignment = 1 : i64} : i1, !llvm.ptr
  %l = llvm.load %s {alignment = 1 : i64} : !llvm.ptr -> i1
  %z = llvm.zext %l : i1 to i32
  %m = llvm.mul %acc, %n : i32
  %acc2 = llvm.add %m, %z : i32
  %i2 = llvm.add %i, %one : i32
  %more = llvm.icmp "slt" %i2, %n : i32
  llvm.cond_br %more, ^bb1(%i2, %acc2 : i32, i32), ^bb2
^bb2:
  llvm.store %acc2, %out {alignment = 4 : i64} : i32, !llvm.ptr<1>
  llvm.return
}
