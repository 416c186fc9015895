// ptxcc-abi-report shows each function's local depot as seed 004 lays it
// out (phases 2-3: slots in order, each at the next offset aligned to its
// alignment; the depot aligned to the largest). Sizes and offsets below
// are worked out by hand from the NVPTX data layout.
// RUN: %ptxcc-opt %s --ptxcc-abi-report -o %t.out 2>&1 | FileCheck %s
// RUN: %ptxcc-opt %s --lower-alloca=dynamic-alloca-size=64 --ptxcc-abi-report -o %t.out 2>&1 | FileCheck %s --check-prefix=AFTER

// i8 at 0; [3 x double] (24 bytes, align 8) at 8; {i16, i8} (4 bytes,
// alignment 16 from its attribute) at 32: 36 bytes.
// CHECK-LABEL: // ptxcc-abi-report @frame:
// CHECK: //  local depot: 36 bytes, align 16; slots (offset:size@align): 0:1@1 8:24@8 32:4@16
// lower-alloca hoists the slots of block 1 to the end of the entry block,
// which keeps their order: the same layout.
// AFTER-LABEL: // ptxcc-abi-report @frame:
// AFTER: //  local depot: 36 bytes, align 16; slots (offset:size@align): 0:1@1 8:24@8 32:4@16
llvm.func @frame(%c: i1) {
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x i8 : (i32) -> !llvm.ptr
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = llvm.alloca %one x !llvm.array<3 x f64> : (i32) -> !llvm.ptr
  %d = llvm.alloca %one x !llvm.struct<(i16, i8)> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  llvm.call @use(%a, %b, %d) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  llvm.br ^bb2
^bb2:
  llvm.return
}
llvm.func @use(!llvm.ptr, !llvm.ptr, !llvm.ptr)

// A function without stack slots has no depot line.
// CHECK-LABEL: // ptxcc-abi-report @no_slots:
// CHECK-NOT: local depot
// CHECK: // ptxcc-abi-report @dynamic:
llvm.func @no_slots() {
  llvm.return
}

// A dynamic slot has no size the report can know.
// CHECK: //  local depot: 0 bytes plus dynamic slots, align 4; slots (offset:size@align): 0:?@4
// After lower-alloca reserved 64 bytes for it (i8 elements, alignment of
// the i32 kept), it has.
// AFTER-LABEL: // ptxcc-abi-report @dynamic:
// AFTER: //  local depot: 64 bytes, align 4; slots (offset:size@align): 0:64@4
llvm.func @dynamic(%n: i32) {
  %a = llvm.alloca %n x i32 : (i32) -> !llvm.ptr
  llvm.return
}
