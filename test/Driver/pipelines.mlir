// Pass flags run in command-line order and mix with upstream passes; the
// same pipeline can be given as text to MLIR's own parser.
// RUN: %ptxcc-opt %s --convert-ptxcc-to-llvm --canonicalize --cse | FileCheck %s
// RUN: %ptxcc-opt %s --pass-pipeline='builtin.module(convert-ptxcc-to-llvm{inline-copy-threshold=256 vector-copy=true},llvm.func(canonicalize,cse))' | FileCheck %s
// RUN: %ptxcc-opt %s --pass-pipeline='builtin.module(ptxcc-pipeline,cse)' | FileCheck %s
// IR printing and timing go to standard error.
// RUN: %ptxcc-opt %s --convert-ptxcc-to-llvm --cse --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// RUN: %ptxcc-opt %s --convert-ptxcc-to-llvm --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// LLVM IR through the in-process translation.
// RUN: %ptxcc-opt %s --convert-ptxcc-to-llvm --emit=llvm | FileCheck %s --check-prefix=LLVMIR
// RUN: not %ptxcc-opt %s --emit=llvm 2>&1 | FileCheck %s --check-prefix=NOT-TRANSLATABLE

// CSE merges the two identical loads that the conversion produced.
// CHECK-LABEL: llvm.func ptx_kernelcc @twice(
// CHECK: llvm.getelementptr
// CHECK-NEXT: %[[V:.*]] = llvm.load
// CHECK-NOT: llvm.load
// CHECK: llvm.add %[[V]], %[[V]]
llvm.func ptx_kernelcc @twice(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %a = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  %b = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  %sum = llvm.add %a, %b : i64
  llvm.store %sum, %out : i64, !llvm.ptr
  llvm.return
}

// PRINT: IR Dump After ConvertPtxccToLlvm (convert-ptxcc-to-llvm)
// PRINT: IR Dump After CSE (cse)
// TIMING: Execution time report
// TIMING: ConvertPtxccToLlvm
// LLVMIR: define ptx_kernel void @twice(ptr byval([4 x i64]) align 8 %0, ptr %1)
// LLVMIR: load i64, ptr addrspace(101) %{{.*}}, align 8
// NOT-TRANSLATABLE: error: {{.*}}ptxcc.load_param
