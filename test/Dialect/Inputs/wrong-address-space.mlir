llvm.func @wrong(%s: !llvm.ptr) {
  %v = "ptxcc.load_param"(%s) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr) -> i64
  llvm.return
}
