// The prototypes in the report are exactly what llc prints: the report
// without its comment lines equals the headers in llc's PTX, line for line.
// RUN: %ptxcc-opt --ptxcc-abi-report=ptx=80 %s -o %t.out 2>&1 | grep -v '^//' > %t.report
// RUN: %ptxcc-opt %s | %to-llvmir | %llc-sm90 | python3 %S/Inputs/ptx-headers.py > %t.llc
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
