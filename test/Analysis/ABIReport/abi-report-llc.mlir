// The prototypes in the report are exactly what llc prints: the report
// without its comment lines equals the headers in llc's PTX, line for line.
// RUN: %ptxcc-opt --ptxcc-abi-report=ptx=80 %s -o %t.out 2>&1 | grep -v '^//' > %t.report
// No pass runs, so this is llc's own PTX: its `.param .b128` (an i128
// parameter) needs PTX 8.3 by ptxas, which llc does not check at +ptx80.
// RUN: %ptxcc-opt %s | %to-llvmir | env PTXAS_CHECK_ALLOW="Type .b128' requires PTX ISA .version 8.3" %llc-sm90 \
// RUN:   | python3 %S/Inputs/ptx-headers.py > %t.llc
// RUN: diff %t.report %t.llc

llvm.func ptx_kernelcc @kernel(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64},
                               %out: !llvm.ptr<1> {llvm.align = 16 : i64}, %flag: i1, %h: f16, %v: vector<3xf32>) {
  llvm.return
}

llvm.func internal @"local.helper"(%v: !llvm.struct<(f32, f32, f32)>, %b: i8) -> !llvm.struct<(i8, i64)> {
  %0 = llvm.mlir.zero : !llvm.struct<(i8, i64)>
  llvm.return %0 : !llvm.struct<(i8, i64)>
}

llvm.func @device(%p: !llvm.ptr {llvm.byval = !llvm.struct<packed (i8, i32, i16)>}, %w: i96, %q: !llvm.ptr<6>) -> f16 {
  %0 = llvm.mlir.constant(0.0 : f16) : f16
  llvm.return %0 : f16
}

llvm.func weak @weak_variadic(%a: i32, ...) {
  llvm.return
}

llvm.func @stops() attributes {passthrough = ["noreturn"]} {
  llvm.unreachable
}

// Local functions whose address only dead code takes: llc -O2 deletes the
// dead code first and aligns their .param as if the address were not taken
// (to 16). The report used to predict .align 4 for @dead_taken.
llvm.func internal @dead_taken(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}) -> i32 {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}
llvm.func internal @really_taken(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}) -> i32 {
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.return %v : i32
}
llvm.func @takes_addresses(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %o: !llvm.ptr, %n: i64) {
  %dead = llvm.mlir.addressof @dead_taken : !llvm.ptr
  %g = llvm.getelementptr %dead[%n] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  %b = llvm.load %g : !llvm.ptr -> i8
  %i = llvm.ptrtoint %dead : !llvm.ptr to i64
  %taken = llvm.mlir.addressof @really_taken : !llvm.ptr
  llvm.store %taken, %o : !llvm.ptr, !llvm.ptr
  %r = llvm.call @dead_taken(%s) : (!llvm.ptr) -> i32
  %q = llvm.call @really_taken(%s) : (!llvm.ptr) -> i32
  llvm.return
}
