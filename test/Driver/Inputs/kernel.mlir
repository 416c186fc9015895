llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.array<4 x i64>, llvm.align = 8 : i64}, %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  %v = "ptxcc.load_param"(%p) {offset = 8 : i64, alignment = 8 : i64} : (!llvm.ptr<101>) -> i64
  llvm.store %v, %out : i64, !llvm.ptr
  llvm.return
}
