// mlir-opt's --dump-pass-pipeline and --mlir-print-debuginfo mean the same
// in ptxcc-opt: on a pipeline of upstream passes and a module without ptxcc
// ops, both tools print the same pipeline and the same located output.
// RUN: %llvm-bin/mlir-opt %s --dump-pass-pipeline --pass-pipeline='builtin.module(cse,canonicalize)' --mlir-print-debuginfo > %t.upstream.out 2> %t.upstream.err
// RUN: %ptxcc-opt-path %s --dump-pass-pipeline --pass-pipeline='builtin.module(cse,canonicalize)' --mlir-print-debuginfo > %t.ours.out 2> %t.ours.err
// RUN: diff %t.upstream.err %t.ours.err
// RUN: diff %t.upstream.out %t.ours.out
// RUN: FileCheck %s --check-prefix=DUMP < %t.ours.err
// RUN: FileCheck %s < %t.ours.out

// DUMP: Pass Manager with 2 passes:
// DUMP-NEXT: builtin.module(
// DUMP-NEXT:   cse,
// DUMP-NEXT:   canonicalize{{.*}}
// DUMP-NEXT: )

// The pipeline of ptxcc's passes dumps too, with the function passes nested.
// RUN: %ptxcc-opt-path %s --dump-pass-pipeline --ptxcc-pipeline -o %t.pipeline.mlir 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: Pass Manager with 3 passes:
// PIPELINE: lower-struct-args,
// PIPELINE: llvm.func(
// PIPELINE-NEXT: promote-local-arrays,
// PIPELINE-NEXT: lower-alloca,
// PIPELINE-NEXT: memory-space-opt,
// PIPELINE-NEXT: convert-ptxcc-to-llvm

// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: i32 loc("{{.*}}mlir-opt-flags.mlir":[[@LINE+2]]:14)
// CHECK: llvm.add {{.*}} loc(#loc
llvm.func @f(%a: i32) -> i32 {
  %0 = llvm.add %a, %a : i32
  llvm.return %0 : i32
}
