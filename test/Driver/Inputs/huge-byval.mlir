// A written 8192-byte byval struct needs a local copy over max-byval-size.
llvm.func ptx_kernelcc @huge_copy(%s: !llvm.ptr {llvm.byval = !llvm.array<2048 x i32>, llvm.align = 4 : i64}, %x: i32) attributes {target_features = #llvm.target_features<["+ptx81"]>} {
  llvm.store %x, %s : i32, !llvm.ptr
  llvm.return
}
