llvm.func @ok() {
  llvm.return
}

// -----

llvm.func @bad() {
  llvm.retur
}
