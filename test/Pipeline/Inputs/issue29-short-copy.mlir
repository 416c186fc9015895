// An 8-byte byval struct aligned to 16 that the kernel writes, then reads
// back through a pointer that escapes into a loop (so the copy is not
// broken up): with inline-copy-threshold below 16 the copy loop wrote 16
// bytes into the 8-byte slot. See ../regressions.mlir.
llvm.func ptx_kernelcc @short_copy(%s: !llvm.ptr {llvm.byval = !llvm.struct<(i32, i32)>, llvm.align = 16 : i64}, %out: !llvm.ptr, %n: i32) {
  %c = llvm.mlir.constant(7 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %z = llvm.mlir.constant(0 : i32) : i32
  %two = llvm.mlir.constant(2 : i32) : i32
  %slot = llvm.alloca %one x !llvm.array<4 x i32> {alignment = 16 : i64} : (i32) -> !llvm.ptr
  llvm.store %n, %slot : i32, !llvm.ptr
  %s1 = llvm.getelementptr %slot[1] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.store %n, %s1 : i32, !llvm.ptr
  %s2 = llvm.getelementptr %slot[2] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.store %n, %s2 : i32, !llvm.ptr
  %s3 = llvm.getelementptr %slot[3] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.store %n, %s3 : i32, !llvm.ptr
  llvm.store %c, %s : i32, !llvm.ptr
  %i = llvm.and %n, %one : i32
  %p = llvm.getelementptr %s[%i] : (!llvm.ptr, i32) -> !llvm.ptr, i32
  %v = llvm.load %p : !llvm.ptr -> i32
  llvm.store %v, %out : i32, !llvm.ptr
  %o1 = llvm.getelementptr %out[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %w = llvm.load %s3 : !llvm.ptr -> i32
  llvm.store %w, %o1 : i32, !llvm.ptr
  llvm.return
}
