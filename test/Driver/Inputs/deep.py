"""Writes deeply nested MLIR to standard output, for the nesting-limit tests.

  deep.py modules N   N nested `module {` around a byval kernel
  deep.py struct N    a kernel whose byval type nests N `!llvm.struct<(`
"""
import sys

KERNEL = """llvm.func ptx_kernelcc @k(%s: !llvm.ptr {{llvm.byval = {ty}, llvm.align = 8 : i64}}, %o: !llvm.ptr) {{
  %v = llvm.load %s : !llvm.ptr -> i32
  llvm.store %v, %o : i32, !llvm.ptr
  llvm.return
}}
"""

kind, depth = sys.argv[1], int(sys.argv[2])
if kind == "modules":
    print("module {\n" * depth + KERNEL.format(ty="!llvm.struct<(i32, f64)>") + "}\n" * depth, end="")
else:
    ty = "i32"
    for _ in range(depth):
        ty = f"struct<({ty}, i8)>"
    print(KERNEL.format(ty="!llvm." + ty), end="")
