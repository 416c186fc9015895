; Functions with local frames of known sizes (a dynamically indexed
; volatile array each) calling one another: sass-call-tree.test.
target triple = "nvptx64-nvidia-cuda"

define internal i32 @leaf(i32 %i) noinline {
  %a = alloca [16 x i32], align 4
  %p = getelementptr [16 x i32], ptr %a, i32 0, i32 %i
  store volatile i32 %i, ptr %p
  %v = load volatile i32, ptr %a
  ret i32 %v
}

define internal i32 @mid(i32 %i) noinline {
  %a = alloca [8 x i32], align 4
  %p = getelementptr [8 x i32], ptr %a, i32 0, i32 %i
  store volatile i32 %i, ptr %p
  %c = call i32 @leaf(i32 %i)
  %v = load volatile i32, ptr %a
  %s = add i32 %v, %c
  ret i32 %s
}

define internal i32 @rec(i32 %i) noinline {
  %a = alloca [4 x i32], align 4
  %p = getelementptr [4 x i32], ptr %a, i32 0, i32 %i
  store volatile i32 %i, ptr %p
  %z = icmp eq i32 %i, 0
  br i1 %z, label %done, label %again
again:
  %j = sub i32 %i, 1
  %r = call i32 @rec(i32 %j)
  br label %done
done:
  %v = load volatile i32, ptr %a
  ret i32 %v
}

define ptx_kernel void @k(i32 %i, ptr addrspace(1) %out) {
  %a = alloca [2 x i32], align 4
  %p = getelementptr [2 x i32], ptr %a, i32 0, i32 %i
  store volatile i32 %i, ptr %p
  %m = call i32 @mid(i32 %i)
  %l = call i32 @leaf(i32 %i)
  %r = call i32 @rec(i32 %i)
  %v = load volatile i32, ptr %a
  %s1 = add i32 %m, %l
  %s2 = add i32 %s1, %r
  %s3 = add i32 %s2, %v
  store i32 %s3, ptr addrspace(1) %out
  ret void
}
