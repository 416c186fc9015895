// promote-local-arrays is an optimization: it never fails a compile. When
// what it did to a function does not verify (or it panics), the function
// is put back as it was before the pass touched it, a warning at each
// alloca it had changed asks for a report, and the compile goes on with
// llc's code for that function. A planted unroller bug shows it
// (PTXCC_PLANT_BUG=unroll, a test hook: the first copied op of the second
// iteration uses its own result).
//
// What users get (release builds, or PTXCC_FALLBACK=warn): the warning,
// exit status 0, the array left in local memory and PTX that ptxas takes.
// RUN: env PTXCC_PLANT_BUG=unroll PTXCC_FALLBACK=warn %ptxcc-opt %s --ptxcc-pipeline 2>%t.warn | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=WARN < %t.warn
// RUN: env PTXCC_PLANT_BUG=unroll PTXCC_FALLBACK=warn %ptxcc-opt %s --ptxcc-pipeline --emit=ptx 2>/dev/null | %ptxas-check | FileCheck %s --check-prefix=PTX
// WARN: issue40-fallback.mlir:[[# @LINE + 24]]:8: warning: not promoted: internal error in promote-local-arrays (operand #0 does not dominate this use); the function is compiled as it came; please report
// IR-LABEL: llvm.func ptx_kernelcc @sum(
// IR: llvm.alloca {{.*}} x !llvm.array<4 x f32>
// IR: llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr<5>, i64) -> !llvm.ptr<5>, !llvm.array<4 x f32>
// IR: llvm.cond_br
// PTX: .entry sum(
// PTX: .local .align 4 .b8 __local_depot0[16];
//
// What the test suite, the fuzzers (PTXCC_FALLBACK=error, lit.cfg.py) and
// debug builds get: an error, exit status 1, so that the fallback never
// hides a bug from us.
// RUN: env PTXCC_PLANT_BUG=unroll not %ptxcc-opt %s --ptxcc-pipeline -o %t.error.mlir 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: issue40-fallback.mlir:[[# @LINE + 12]]:8: error: internal error in promote-local-arrays: operand #0 does not dominate this use (PTXCC_FALLBACK=error); please report
// A panic in the pass is caught the same way (PTXCC_PLANT_BUG=panic).
// RUN: env PTXCC_PLANT_BUG=panic PTXCC_FALLBACK=warn %ptxcc-opt %s --ptxcc-pipeline -o %t.panic.mlir 2>&1 | FileCheck %s --check-prefix=PANIC
// RUN: FileCheck %s --check-prefix=IR < %t.panic.mlir
// PANIC: issue40-fallback.mlir:[[# @LINE + 4]]:1: warning: not promoted: internal error in promote-local-arrays (a panic planted in the unroller (PTXCC_PLANT_BUG=panic)); the function is compiled as it came; please report
// Without the planted bug, the loop is unrolled and the array promoted.
// RUN: %ptxcc-opt %s --ptxcc-pipeline=promote-remarks=true -o %t.promoted.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: promoted to registers: 16 bytes; loops unrolled with 4 iterations
llvm.func ptx_kernelcc @sum(%in: !llvm.ptr {llvm.align = 4 : i64}, %out: !llvm.ptr {llvm.align = 4 : i64}, %j: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %a = llvm.alloca %c1 x !llvm.array<4 x f32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^loop(%c0 : i32)
^loop(%k: i32):
  %k64 = llvm.zext %k : i32 to i64
  %src = llvm.getelementptr %in[%k64] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %src {alignment = 4 : i64} : !llvm.ptr -> f32
  %dst = llvm.getelementptr %a[0, %k64] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
  llvm.store %v, %dst {alignment = 4 : i64} : f32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  %done = llvm.icmp "eq" %next, %c4 : i32
  llvm.cond_br %done, ^exit, ^loop(%next : i32)
^exit:
  %i = llvm.and %j, %c1 : i32
  %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x f32>
  %r = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32
  llvm.store %r, %out {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}
