"""Module shapes that once made a ptxcc pass quadratic, at any size.

Each shape is a function of n that returns MLIR text, and the pass
arguments of ptxcc-opt that ran slowly on it. scaling.py times them.
"""

S = "!llvm.struct<(i32, f32)>"
BYVAL = f"!llvm.ptr {{llvm.byval = {S}, llvm.align = 4 : i64}}"


def small_functions(n):
    """n small kernels and device functions (ptxcc-verify asked each op for
    an operand it may not have; melior printed the module into the error)."""
    out = []
    for i in range(n):
        out.append(
            f"llvm.func @d{i}(%p: !llvm.ptr, %v: i32) -> i32 {{\n"
            f"  %a = llvm.load %p : !llvm.ptr -> i32\n"
            f"  %b = llvm.add %a, %v : i32\n"
            f"  llvm.store %b, %p : i32, !llvm.ptr\n"
            f"  llvm.return %b : i32\n}}\n"
            f"llvm.func ptx_kernelcc @k{i}(%p: !llvm.ptr, %v: i32) {{\n"
            f"  %r = llvm.call @d{i}(%p, %v) : (!llvm.ptr, i32) -> i32\n"
            f"  llvm.return\n}}\n"
        )
    return "".join(out)


def block_chain(n):
    """A kernel pointer passed down a chain of n blocks (memory-space-opt's
    fixpoint went over every op once per block)."""
    lines = [f"llvm.func ptx_kernelcc @chain(%p: !llvm.ptr, %v: i32) {{", "  %one = llvm.mlir.constant(1 : i64) : i64", "  llvm.br ^b0(%p : !llvm.ptr)"]
    for i in range(n):
        lines.append(f"^b{i}(%q{i}: !llvm.ptr):")
        lines.append(f"  %g{i} = llvm.getelementptr %q{i}[%one] : (!llvm.ptr, i64) -> !llvm.ptr, i32")
        lines.append(f"  llvm.store %v, %g{i} : i32, !llvm.ptr")
        lines.append(f"  llvm.br ^b{i + 1}(%g{i} : !llvm.ptr)")
    lines.append(f"^b{n}(%last: !llvm.ptr):")
    lines.append("  llvm.return\n}\n")
    return "\n".join(lines)


def select_chain(n):
    """A chain of n selects over two byval parameters (lower-struct-args
    revisited the chain for every select)."""
    lines = [
        f"llvm.func ptx_kernelcc @selects(%a: {BYVAL}, %b: {BYVAL}, %c: i1, %out: !llvm.ptr) {{",
        "  %s0 = llvm.select %c, %a, %b : i1, !llvm.ptr",
    ]
    for i in range(1, n):
        lines.append(f"  %s{i} = llvm.select %c, %s{i - 1}, %b : i1, !llvm.ptr")
    lines.append(f"  %v = llvm.load %s{n - 1} : !llvm.ptr -> i32")
    lines.append("  llvm.store %v, %out : i32, !llvm.ptr")
    lines.append("  llvm.return\n}\n")
    return "\n".join(lines)


def select_chain_written(n):
    """The select chain, with a store through its end: both parameters are
    copied, and every select finds the same store."""
    return select_chain(n).replace("  llvm.store %v, %out : i32, !llvm.ptr", f"  llvm.store %v, %s{n - 1} : i32, !llvm.ptr")


def flattened_calls(n):
    """n internal functions taking a small struct, each called once
    (lower-struct-args re-planned every function every round)."""
    out = []
    for i in range(n):
        out.append(
            f"llvm.func internal @f{i}(%s: {S}) -> f32 {{\n"
            f"  %x = llvm.extractvalue %s[1] : {S}\n"
            f"  llvm.return %x : f32\n}}\n"
            f"llvm.func @c{i}(%s: {S}, %out: !llvm.ptr) {{\n"
            f"  %r = llvm.call @f{i}(%s) : ({S}) -> f32\n"
            f"  llvm.store %r, %out : f32, !llvm.ptr\n"
            f"  llvm.return\n}}\n"
        )
    return "".join(out)


def flattened_byval_calls(n):
    """n internal functions taking a small struct byval (clang's form), each
    called once from a kernel with its own byval parameter."""
    out = []
    for i in range(n):
        out.append(
            f"llvm.func internal @f{i}(%s: {BYVAL}) -> f32 {{\n"
            f"  %p = llvm.getelementptr %s[0, 1] : (!llvm.ptr) -> !llvm.ptr, {S}\n"
            f"  %x = llvm.load %p : !llvm.ptr -> f32\n"
            f"  llvm.return %x : f32\n}}\n"
            f"llvm.func ptx_kernelcc @k{i}(%s: {BYVAL}, %out: !llvm.ptr) {{\n"
            f"  %r = llvm.call @f{i}(%s) : (!llvm.ptr) -> f32\n"
            f"  llvm.store %r, %out : f32, !llvm.ptr\n"
            f"  llvm.return\n}}\n"
        )
    return "".join(out)


def calls_sharing_a_pointer(n):
    """Issue 29: n calls of one flattened function that all pass the same
    pointer (each rewritten call read every use of its arguments: 53 s at
    32,000 calls)."""
    lines = [
        f"llvm.func internal @f(%s: {S}, %p: !llvm.ptr) {{",
        f"  %x = llvm.extractvalue %s[0] : {S}",
        "  llvm.store %x, %p : i32, !llvm.ptr",
        "  llvm.return\n}",
        "llvm.func ptx_kernelcc @k(%p: !llvm.ptr) {",
        f"  %s = llvm.load %p : !llvm.ptr -> {S}",
    ]
    lines += [f"  llvm.call @f(%s, %p) : ({S}, !llvm.ptr) -> ()"] * n
    lines.append("  llvm.return\n}\n")
    return "\n".join(lines)


# name: (generator, ptxcc-opt pass arguments, the sizes a test doubles)
SHAPES = {
    "verify-small-functions": (small_functions, ["--ptxcc-verify"], [400, 800, 1600, 3200]),
    "memory-space-opt-block-chain": (block_chain, ["--memory-space-opt"], [2000, 4000, 8000, 16000]),
    "lower-struct-args-select-chain": (select_chain, ["--lower-struct-args"], [2000, 4000, 8000, 16000]),
    "lower-struct-args-select-chain-written": (select_chain_written, ["--lower-struct-args"], [2000, 4000, 8000, 16000]),
    "lower-struct-args-flattened-calls": (flattened_calls, ["--lower-struct-args"], [1250, 2500, 5000, 10000]),
    "lower-struct-args-flattened-byval-calls": (flattened_byval_calls, ["--lower-struct-args"], [1250, 2500, 5000, 10000]),
    "lower-struct-args-calls-sharing-a-pointer": (
        calls_sharing_a_pointer, ["--lower-struct-args=flatten-always=true"], [2000, 4000, 8000, 16000]),
    "pipeline-block-chain": (block_chain, ["--ptxcc-pipeline"], [2000, 4000, 8000, 16000]),
    "pipeline-select-chain": (select_chain, ["--ptxcc-pipeline"], [2000, 4000, 8000, 16000]),
}
