// A kernel that receives a struct by value, `struct S { double f; char b; int a[4]; }`,
// as clang passes it (a byval pointer), already expressed with ptxcc ops:
// one field read at its offset (ld.param), the address handed to a function
// that only reads it (cvta.param, no copy), and a private copy that the
// kernel may write (ld.param.v4 / st.local.v4).
llvm.func ptx_kernelcc @demo(%s: !llvm.ptr {llvm.byval = !llvm.struct<(f64, i8, array<4 x i32>)>, llvm.align = 8 : i64},
                             %out: !llvm.ptr) {
  %p = llvm.addrspacecast %s : !llvm.ptr to !llvm.ptr<101>
  // s.a[3]: offset 12 + 3 * 4 = 24
  %a3 = "ptxcc.load_param"(%p) {offset = 24 : i64, alignment = 4 : i64} : (!llvm.ptr<101>) -> i32
  llvm.store %a3, %out : i32, !llvm.ptr
  // read_only(&s)
  %g = "ptxcc.param_to_generic"(%p) : (!llvm.ptr<101>) -> !llvm.ptr
  llvm.call @read_only(%g) : (!llvm.ptr) -> ()
  // S copy = s; copy.b = 1; writer(&copy);
  %one = llvm.mlir.constant(1 : i32) : i32
  %slot = llvm.alloca %one x !llvm.struct<(f64, i8, array<4 x i32>)> {alignment = 16 : i64} : (i32) -> !llvm.ptr<5>
  "ptxcc.copy_param"(%p, %slot) {size = 32 : i64, alignment = 16 : i64} : (!llvm.ptr<101>, !llvm.ptr<5>) -> ()
  %copy = llvm.addrspacecast %slot : !llvm.ptr<5> to !llvm.ptr
  %b = llvm.getelementptr %copy[8] : (!llvm.ptr) -> !llvm.ptr, i8
  %c1 = llvm.mlir.constant(1 : i8) : i8
  llvm.store %c1, %b : i8, !llvm.ptr
  llvm.call @writer(%copy) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @read_only(!llvm.ptr)
llvm.func @writer(!llvm.ptr)
