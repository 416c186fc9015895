// A top-tested loop of exactly max-trip-count iterations (its header runs
// once more, to leave: that run was counted as an iteration).
llvm.func @issue40_top_tested_exact(%out: !llvm.ptr) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %c16 = llvm.mlir.constant(16 : i64) : i64
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  llvm.br ^header(%c0 : i32)
^header(%k: i32):
  %more = llvm.icmp "slt" %k, %c4 : i32
  llvm.cond_br %more, ^body, ^exit
^body:
  %p = llvm.getelementptr %a[0, %k] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x i32>
  llvm.store %k, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %next = llvm.add %k, %c1 : i32
  llvm.br ^header(%next : i32)
^exit:
  "llvm.intr.memcpy"(%out, %a, %c16) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

// A loop of 2^32 iterations, in code that never runs: the options allow
// it, but the analysis counts at most 65536 iterations of any loop (it
// kept every counter value up to max-trip-count and ran out of memory).
llvm.func @issue40_huge_trip_count(%out: !llvm.ptr, %never: i1) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %big = llvm.mlir.constant(4294967296 : i64) : i64
  %one = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.alloca %one x !llvm.array<4 x i64> {alignment = 8 : i64} : (i32) -> !llvm.ptr
  llvm.cond_br %never, ^loop(%c0 : i64), ^exit
^loop(%k: i64):
  %i = llvm.and %k, %c1 : i64
  %p = llvm.getelementptr %a[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i64>
  llvm.store %k, %p {alignment = 8 : i64} : i64, !llvm.ptr
  %next = llvm.add %k, %c1 : i64
  %done = llvm.icmp "eq" %next, %big : i64
  llvm.cond_br %done, ^exit, ^loop(%next : i64)
^exit:
  llvm.return
}
