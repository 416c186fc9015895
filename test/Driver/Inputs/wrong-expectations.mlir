llvm.func @wrong(%p: !llvm.ptr<101>) {
  // expected-error @+2 {{a message nobody emits}}
  // expected-error @+1 {{a message nobody emits}}
  %v = "ptxcc.load_param"(%p) {offset = 0 : i64, alignment = 3 : i64} : (!llvm.ptr<101>) -> i32
  llvm.return
}
