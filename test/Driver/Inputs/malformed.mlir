llvm.func @f() {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.bogus_op %0
  llvm.return
}
