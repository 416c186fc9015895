// A target_cpu that is not UTF-8 (reading it panicked).
llvm.func ptx_kernelcc @k(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 4 : i64}, %o: !llvm.ptr) attributes {target_cpu = "sm_\FF"} {
  %x = llvm.load %s : !llvm.ptr -> i32
  llvm.store %x, %o : i32, !llvm.ptr
  llvm.return
}
