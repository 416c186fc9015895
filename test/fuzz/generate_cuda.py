#!/usr/bin/env python3
"""A seeded generator of CUDA kernels with the loops and the data people
write, for promote-local-arrays and the pipeline around it (issue 40).

    generate_cuda.py SEED [--kernels N]      prints one .cu file

A file is a list of kernels (`extern "C"`, no CUDA headers: clang's
`-nocudainc -nocudalib`, as test/e2e/*.cu), each with the types, the device
functions and the per-thread arrays of its own, so that a file can be
rebuilt from any subset of its kernels, and a kernel from any subset of its
statements (fuzz_cuda.py reduces a failure that way). The same seed gives
the same file.

What a kernel holds:
- one to three per-thread arrays of 4 to 64 elements (one or two
  dimensions; some wrapped in a struct, some bare) of scalars (`bool`,
  `char`, `short`, `int`, `long long`, `__int128`, `float`, `double`,
  unsigned variants, `_BitInt(7/12/24/33/48)`) or of structs with padding
  (`{char; int}`, `{char; double}`, `bool` and odd-width fields, arrays of
  structs inside the element), cleared with `= {}`, `__builtin_memset` (0,
  1, 0x5A, 0xFF), a loop writing every field, or a copy of the input;
- loops: `for` (counting up or down from negative or positive starts, step
  1, 2 or 3, `<`, `<=`, `!=`, the `++k` of a second counter in the
  increment), top-tested `while` and bottom-tested `do`/`while` with exactly
  N trips; trip counts 0/1/2/7/8/16/33/128/129 and array-sized ones, from
  the input now and then; counters of every integer width (`char` to
  `__int128`, signed and unsigned; 64- and 128-bit ones now and then far
  from 0, at 2^40 or 2^64, and their high bits read); `#pragma unroll
  1/2/4`; nested loops
  (promote-local-arrays unrolls both levels), an inner loop as the last
  statement of the outer body (its exit is the outer latch), nests that
  leave together through a `goto`;
- loop bodies with `if`/`else`, `?:`, `continue`, data-dependent `break`,
  `switch` (with fall-through), `min`/`max`, stores to global memory (a
  branch around them stays a branch), reductions through the latch
  (the kernel's accumulator and loop-local sums), hash-like index chains
  (`h ^= (h << 3) ^ (h >> 5)` repeated, `table[h & 15]`), index
  expressions of the counters (shifted, reversed, scaled, two counters,
  masks, `%`, `min`, `?:`, `bool` indices), element stores of whole structs
  (`a[i] = {}`, a temporary built field by field), element copies;
- device functions (`noinline` or not) taking an element or the whole
  array by value, writing their parameter and returning it or a sum;
- accesses at indices from the thread and the input outside loops (what
  promote-local-arrays writes as selects), and refusals on purpose (an
  index read from memory, an array passed to a callee by pointer).

Every array is copied out whole at the end (`out[g] = a;` or a
`__builtin_memcpy`), so every byte is compared, padding included, and the
accumulator goes to `res[g]`. The kernels are valid programs under the
harness's inputs (test/harness/README.md: 2 blocks of 8 threads, 16 KiB
buffers of words 0-15, integers 0-7): every index is checked in range by
evaluating it over every counter value, counters never wrap, signed
arithmetic never overflows, and nothing reads a field whose bytes the
array's clearing left invalid (`bool` and floats after a 0x5A or 0xFF
memset); padding the loop clearing leaves unwritten is unspecified, and
the harness does not compare it. `--checked` makes every index trap when
out of range: the generator's own test (with clang's `-ftrapv` for signed
overflow, at -O0, under the harness: no kernel may be `reference
invalid`).
"""

import argparse
import itertools
import re
import random
import sys
from dataclasses import dataclass, field

# ----------------------------------------------------------------------------
# Types


@dataclass(frozen=True)
class Scalar:
    c: str          # the C spelling
    kind: str       # int, bool, float
    size: int
    signed: bool
    bits: int

    @property
    def align(self):
        return self.size


SCALARS = [
    Scalar("bool", "bool", 1, False, 1),
    Scalar("char", "int", 1, True, 8),
    Scalar("unsigned char", "int", 1, False, 8),
    Scalar("short", "int", 2, True, 16),
    Scalar("unsigned short", "int", 2, False, 16),
    Scalar("int", "int", 4, True, 32),
    Scalar("unsigned", "int", 4, False, 32),
    Scalar("long long", "int", 8, True, 64),
    Scalar("unsigned long long", "int", 8, False, 64),
    Scalar("__int128", "int", 16, True, 128),
    Scalar("float", "float", 4, True, 32),
    Scalar("double", "float", 8, True, 64),
    Scalar("unsigned _BitInt(24)", "int", 4, False, 24),
    Scalar("_BitInt(24)", "int", 4, True, 24),
    Scalar("unsigned _BitInt(12)", "int", 2, False, 12),
    Scalar("_BitInt(7)", "int", 1, True, 7),
    Scalar("_BitInt(33)", "int", 8, True, 33),
    Scalar("unsigned _BitInt(48)", "int", 8, False, 48),
]
BY_NAME = {s.c: s for s in SCALARS}
FIELD_WEIGHTS = {
    "bool": 6, "char": 6, "unsigned char": 2, "short": 3, "unsigned short": 2, "int": 6, "unsigned": 4,
    "long long": 2, "unsigned long long": 1, "__int128": 1, "float": 3, "double": 4,
    "unsigned _BitInt(24)": 3, "_BitInt(24)": 2, "unsigned _BitInt(12)": 2, "_BitInt(7)": 2, "_BitInt(33)": 1,
    "unsigned _BitInt(48)": 1,
}
# Counter types: (C spelling, bits, signed).
COUNTERS = [
    ("char", 8, True), ("signed char", 8, True), ("unsigned char", 8, False), ("short", 16, True),
    ("unsigned short", 16, False), ("int", 32, True), ("unsigned", 32, False), ("long", 64, True),
    ("long long", 64, True), ("unsigned long long", 64, False), ("__int128", 128, True),
    ("unsigned __int128", 128, False),
]
COUNTER_WEIGHTS = [3, 2, 3, 3, 2, 12, 5, 1, 3, 2, 3, 2]


@dataclass
class ArrayT:
    elem: object
    count: int


@dataclass
class Struct:
    name: str
    fields: list  # [(name, type)]


def size_align(ty):
    if isinstance(ty, Scalar):
        return ty.size, ty.align
    if isinstance(ty, ArrayT):
        size, align = size_align(ty.elem)
        return size * ty.count, align
    offset, align = 0, 1
    for _, fty in ty.fields:
        fsize, falign = size_align(fty)
        offset = (offset + falign - 1) // falign * falign + fsize
        align = max(align, falign)
    return (offset + align - 1) // align * align, align


@dataclass
class Leaf:
    """A scalar inside an element: its path (field names and the sizes of
    inner arrays) and type."""
    path: list  # ("f", name) or ("i", count)
    ty: Scalar

    def inner_dims(self):
        return [p[1] for p in self.path if p[0] == "i"]

    def render(self, indices):
        text, k = "", 0
        for kind, value in self.path:
            if kind == "f":
                text += f".{value}"
            else:
                text += f"[{indices[k]}]"
                k += 1
        return text


def leaves(ty, path=()):
    if isinstance(ty, Scalar):
        return [Leaf(list(path), ty)]
    if isinstance(ty, ArrayT):
        return leaves(ty.elem, path + (("i", ty.count),))
    return [leaf for name, fty in ty.fields for leaf in leaves(fty, path + (("f", name),))]


def type_c(ty):
    return ty.c if isinstance(ty, Scalar) else ty.name


def struct_def(struct):
    lines = [f"struct {struct.name} {{"]
    for name, fty in struct.fields:
        if isinstance(fty, ArrayT):
            lines.append(f"  {type_c(fty.elem)} {name}[{fty.count}];")
        else:
            lines.append(f"  {type_c(fty)} {name};")
    lines.append("};")
    return "\n".join(lines)


# ----------------------------------------------------------------------------
# Index expressions: C text and their value (C's int semantics) at given
# counter values, so that every index is checked in range.


class UB(Exception):
    """The expression would overflow or shift a negative value."""


def c_int(v, unsigned=False):
    """`v` as a C literal (a 128-bit one as an expression)."""
    u = "u" if unsigned else ""
    if -(1 << 31) <= v < (1 << 31):
        return f"{v}{u}" if v >= 0 else f"({v})"
    if -(1 << 63) <= v < (1 << 63):
        return f"{v}{u.upper()}LL" if v >= 0 else f"({v}LL)"
    if 0 <= v < (1 << 64):
        return f"{v}ULL"
    kind = "unsigned __int128" if unsigned else "__int128"
    return f"(({kind})({v >> 64}LL) * (({kind})1 << 64) + ({kind}){v & ((1 << 64) - 1)}ULL)"


def to_int(v):
    """C's (int) of an integer (wrapping, as clang does)."""
    v &= (1 << 32) - 1
    return v - (1 << 32) if v >= (1 << 31) else v


def wrap32(v):
    if not -(1 << 31) <= v < (1 << 31):
        raise UB()
    return v


class Ix:
    def vars(self):
        return set()


class Var(Ix):
    """A counter as an int (`(int)i`), or as it is (`raw`: its own type)."""

    def __init__(self, counter, raw=False):
        self.counter, self.raw = counter, raw

    def c(self):
        if self.raw or self.counter.ctype == "int":
            return self.counter.name
        return f"(int){self.counter.name}"

    def ev(self, env):
        value = env[self.counter.name]
        return value if self.raw else to_int(value)

    def vars(self):
        return {self.counter.name}


class Lit(Ix):
    def __init__(self, value):
        self.value = value

    def c(self):
        return c_int(self.value)

    def ev(self, env):
        return self.value


class Bin(Ix):
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def c(self):
        return f"({self.a.c()} {self.op} {self.b.c()})"

    def ev(self, env):
        a, b = self.a.ev(env), self.b.ev(env)
        if self.op == "+":
            return wrap32(a + b)
        if self.op == "-":
            return wrap32(a - b)
        if self.op == "*":
            return wrap32(a * b)
        if self.op == "&":
            return a & b
        if self.op == "|":
            return a | b
        if self.op == "^":
            return a ^ b
        if self.op == ">>":
            if a < 0:
                raise UB()
            return a >> b
        if self.op == "/":
            if b == 0:
                raise UB()
            q = abs(a) // abs(b)
            return q if (a >= 0) == (b > 0) else -q
        raise ValueError(self.op)

    def vars(self):
        return self.a.vars() | self.b.vars()


class UMod(Ix):
    """`(int)((unsigned)(e) % N)`: in range whatever e is."""

    def __init__(self, a, n):
        self.a, self.n = a, n

    def c(self):
        return f"(int)((unsigned)({self.a.c()}) % {self.n}u)"

    def ev(self, env):
        return (self.a.ev(env) % (1 << 32)) % self.n

    def vars(self):
        return self.a.vars()


class Call(Ix):
    """imin/imax (the prelude's), or a clamp of either."""

    def __init__(self, fn, a, b):
        self.fn, self.a, self.b = fn, a, b

    def c(self):
        return f"{self.fn}({self.a.c()}, {self.b.c()})"

    def ev(self, env):
        a, b = self.a.ev(env), self.b.ev(env)
        return min(a, b) if self.fn == "imin" else max(a, b)

    def vars(self):
        return self.a.vars() | self.b.vars()


class Cmp(Ix):
    """A comparison, an int 0 or 1 (a `bool` index: clang's i1)."""

    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b

    def c(self):
        return f"({self.a.c()} {self.op} {self.b.c()})"

    def ev(self, env):
        a, b = self.a.ev(env), self.b.ev(env)
        return int({"<": a < b, ">": a > b, "==": a == b, "!=": a != b}[self.op])

    def vars(self):
        return self.a.vars() | self.b.vars()


class Sel(Ix):
    def __init__(self, cond, a, b):
        self.cond, self.a, self.b = cond, a, b

    def c(self):
        return f"({self.cond.c()} ? {self.a.c()} : {self.b.c()})"

    def ev(self, env):
        return self.a.ev(env) if self.cond.ev(env) else self.b.ev(env)

    def vars(self):
        return self.cond.vars() | self.a.vars() | self.b.vars()


class Raw(Ix):
    """Text whose value is known to lie in [0, n) (a masked hash, a thread
    or input value): nothing to evaluate."""

    def __init__(self, text):
        self.text = text

    def c(self):
        return self.text

    def ev(self, env):
        return 0


def values_in_range(ix, scope, n):
    """Whether `ix` stays in [0, n) at every value of the counters it reads."""
    names = sorted(ix.vars())
    counters = {c.name: c for c in scope}
    if isinstance(ix, Raw):
        return True
    lists = [counters[name].values for name in names]
    total = 1
    for values in lists:
        total *= max(1, len(values))
    if total > 50000:
        return False
    try:
        for combo in itertools.product(*lists):
            value = ix.ev(dict(zip(names, combo)))
            if not 0 <= value < n:
                return False
    except UB:
        return False
    return True


# ----------------------------------------------------------------------------
# Statements: text lines and the bodies inside them. A statement can be
# dropped from any body: whatever it declares, its own body alone uses.


class Node:
    """A statement: lines (str) and bodies (lists of Node), rendered one
    level deeper."""

    def __init__(self, *segments):
        self.segments = list(segments)

    def bodies(self):
        return [s for s in self.segments if isinstance(s, list)]


def render_nodes(nodes, indent, out):
    for node in nodes:
        for segment in node.segments:
            if isinstance(segment, str):
                for line in segment.split("\n"):
                    out.append("  " * indent + line)
            else:
                render_nodes(segment, indent + 1, out)


@dataclass
class Counter:
    name: str
    ctype: str
    values: list
    step: int = 1
    signed: bool = True


@dataclass
class Arr:
    name: str
    elem: object
    dims: list
    wrapped: bool
    init: str            # zero, memset0, memset1, memset5a, memsetff, loop, input, brace
    counted: bool        # indices only from counters (promotable), or from anything
    wrapper: str = ""

    def base(self):
        return f"{self.name}.e" if self.wrapped else self.name

    def leaves(self):
        return leaves(self.elem)

    def elem_count(self):
        total = 1
        for d in self.dims:
            total *= d
        return total

    def size(self):
        return size_align(self.elem)[0] * self.elem_count()

    def readable(self, leaf):
        """Whether the clearing leaves `leaf`'s bytes a valid value."""
        if self.init in ("memsetff", "memset5a"):
            return leaf.ty.kind == "int"
        return True


@dataclass
class Kernel:
    name: str
    structs: list
    arrays: list
    funcs: dict          # name -> text
    stmts: list          # [Node]
    notes: list = field(default_factory=list)

    def render(self):
        out = []
        for struct in self.structs:
            out.append(struct_def(struct))
        for arr in self.arrays:
            if arr.wrapped:
                dims = "".join(f"[{d}]" for d in arr.dims)
                out.append(f"struct {arr.wrapper} {{ {type_c(arr.elem)} e{dims}; }};")
        body = []
        render_nodes(self.stmts, 1, body)
        text = "\n".join(body)
        # Device functions the statements still call (and those they call).
        for name, ftext in self.funcs.items():
            if re.search(rf"\b{name}\(", text):
                out.append(ftext)
        params = []
        for arr in self.arrays:
            params.append(f"{arr.wrapper if arr.wrapped else type_c(arr.elem)} *out_{arr.name}")
        params += ["unsigned *res", "const unsigned *in", "int n"]
        out.append(f'extern "C" GLOBAL void {self.name}({", ".join(params)}) {{')
        out.append("  int tid = __nvvm_read_ptx_sreg_tid_x();")
        out.append("  int g = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + tid;")
        out.append("  unsigned seed = in[g] * 2654435761u + (unsigned)n;")
        out.append("  unsigned acc = seed ^ 0x9e3779b9u;")
        for arr in self.arrays:
            out.extend("  " + line for line in declare(arr))
        out.append(text) if text else None
        for arr in self.arrays:
            if arr.wrapped:
                if arr.name.endswith(("0", "2")):
                    out.append(f"  out_{arr.name}[g] = {arr.name};")
                else:
                    out.append(f"  __builtin_memcpy(&out_{arr.name}[g], &{arr.name}, sizeof {arr.name});")
            else:
                out.append(f"  __builtin_memcpy(out_{arr.name} + g * {arr.elem_count()}, {arr.name}, "
                           f"sizeof {arr.name});")
        out.append("  res[g] = acc;")
        out.append("}")
        return "\n".join(out)


def declare(arr):
    """The declaration of `arr` with its clearing."""
    ty = arr.wrapper if arr.wrapped else type_c(arr.elem)
    dims = "" if arr.wrapped else "".join(f"[{d}]" for d in arr.dims)
    decl = f"{ty} {arr.name}{dims}"
    if arr.init == "zero":
        return [f"{decl} = {{}};"]
    if arr.init == "brace":
        # The first elements given, the rest value-initialised.
        first = first_element(arr.elem)
        inner = "{" * (len(arr.dims) - 1) + first + "}" * (len(arr.dims) - 1)
        return [f"{decl} = {{{{{inner}}}}};" if arr.wrapped else f"{decl} = {{{inner}}};"]
    byte = {"memset0": "0", "memset1": "1", "memset5a": "0x5A", "memsetff": "0xFF"}.get(arr.init)
    if byte:
        return [f"{decl};", f"__builtin_memset(&{arr.name}, {byte}, sizeof {arr.name});"]
    if arr.init == "input":
        return [f"{decl};", f"__builtin_memcpy(&{arr.name}, in + (g & 3) * 64, sizeof {arr.name});"]
    # Every field of every element written by loops (padding left alone).
    lines = [f"{decl};"]
    names = [f"j{d}" for d in range(len(arr.dims))]
    depth = 0
    for name, count in zip(names, arr.dims):
        lines.append("  " * depth + f"for (int {name} = 0; {name} < {count}; ++{name})")
        depth += 1
    lines[-1] += " {"
    flat = " + ".join(names) if len(names) == 1 else f"{names[0]} * {arr.dims[1]} + {names[1]}"
    for leaf in arr.leaves():
        inner = [f"q{d}" for d in range(len(leaf.inner_dims()))]
        pad = "  " * depth
        for q, count in zip(inner, leaf.inner_dims()):
            lines.append(pad + f"for (int {q} = 0; {q} < {count}; ++{q})")
            pad += "  "
        target = arr.base() + "".join(f"[{x}]" for x in names) + leaf.render(inner)
        mix = f"seed * {len(lines) * 2 + 1}u + (unsigned)({flat})" + "".join(f" * 7u + (unsigned){q}" for q in inner)
        lines.append(pad + f"{target} = {convert(leaf.ty, mix)};")
    lines.append("  " * (depth - 1) + "}")
    return lines


def first_element(ty):
    if isinstance(ty, Scalar):
        return "1" if ty.kind != "float" else "1.5"
    parts = []
    for _, fty in ty.fields:
        if isinstance(fty, ArrayT):
            parts.append("{" + first_element(fty.elem) + "}")
        else:
            parts.append(first_element(fty))
    return "{" + ", ".join(parts) + "}"


def convert(ty, value):
    """`value` (an unsigned expression) as a value of scalar `ty`."""
    if ty.kind == "bool":
        return f"(bool)(({value}) & 1u)"
    if ty.kind == "float":
        return f"({ty.c})(({value}) & 255u) * 0.5{'f' if ty.c == 'float' else ''}"
    return f"({ty.c})({value})"


def read(leaf, text):
    """The leaf `text` of type leaf.ty as an unsigned value."""
    if leaf.ty.kind == "float":
        return f"(unsigned)({text} * 4.0{'f' if leaf.ty.c == 'float' else ''})"
    return f"(unsigned){text}"


# ----------------------------------------------------------------------------
# The generator


PRELUDE = """\
// Generated by test/fuzz/generate_cuda.py (issue 40): kernels with the
// loops and the data people write. No CUDA headers (-nocudainc).
#define GLOBAL __attribute__((global))
#define DEVICE __attribute__((device))
#define NOINLINE __attribute__((noinline))
static DEVICE int imin(int a, int b) { return a < b ? a : b; }
static DEVICE int imax(int a, int b) { return a > b ? a : b; }
static DEVICE unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static DEVICE unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
"""

TRIPS = [0, 1, 2, 7, 8, 16, 33, 128, 129]

# --checked: every index the generator computed goes through CHK, which
# traps where it is out of range (the harness says `reference invalid`): a
# test of the generator, not of ptxcc.
CHECKED = False
CHECK_MACRO = "#define CHK(i, n) ((unsigned long long)(long long)(i) < (n) ? (i) : (__builtin_trap(), (i)))\n"


def checked(text, n):
    return f"CHK({text}, {n})" if CHECKED else text


class Gen:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.serial = 0
        self.structs = []
        self.funcs = {}
        self.arrays = []

    def fresh(self, prefix):
        self.serial += 1
        return f"{prefix}{self.serial}"

    def chance(self, p):
        return self.rng.random() < p

    # -- types --------------------------------------------------------------

    def scalar(self, allow_bool=True):
        names = [n for n in FIELD_WEIGHTS if allow_bool or n != "bool"]
        return BY_NAME[self.rng.choices(names, [FIELD_WEIGHTS[n] for n in names])[0]]

    def struct(self, depth=0):
        rng = self.rng
        shape = rng.random()
        if shape < 0.12:
            fields = [BY_NAME["char"], BY_NAME["int"]]
        elif shape < 0.22:
            fields = [BY_NAME["char"], BY_NAME["double"]]
        elif shape < 0.3:
            fields = [BY_NAME["bool"], BY_NAME["int"], BY_NAME["bool"]]
        elif shape < 0.36:
            fields = [BY_NAME["unsigned _BitInt(24)"], BY_NAME["char"]]
        else:
            fields = [self.scalar() for _ in range(rng.randint(1, 4))]
        typed = []
        for k, fty in enumerate(fields):
            typed.append((f"f{k}", fty))
        if depth == 0 and self.chance(0.2):
            # An inner array, of scalars or of small structs.
            if self.chance(0.5):
                typed.insert(rng.randrange(len(typed) + 1), ("v", ArrayT(self.scalar(), rng.choice([2, 3, 4]))))
            else:
                typed.insert(rng.randrange(len(typed) + 1), ("s", ArrayT(self.struct(1), rng.choice([2, 3]))))
        struct = Struct(f"{self.name}_S{len(self.structs)}", typed)
        self.structs.append(struct)
        return struct

    def array(self, index, left):
        """A per-thread array; `left`: the bytes it may take."""
        rng = self.rng
        elem = self.struct() if self.chance(0.6) else self.scalar()
        esize = size_align(elem)[0]
        for _ in range(20):
            if self.chance(0.22):
                dims = [rng.choice([2, 3, 4, 8]), rng.choice([2, 4, 8])]
            else:
                dims = [rng.choice([4, 4, 4, 5, 6, 7, 8, 8, 8, 8, 12, 16, 16, 16, 24, 32, 32, 33, 48, 64])]
            count = dims[0] * (dims[1] if len(dims) > 1 else 1)
            if 4 <= count <= 64 and count * esize <= left:
                break
        else:
            dims = [4]
        ints_only = all(leaf.ty.kind == "int" for leaf in leaves(elem))
        inits = ["zero", "zero", "zero", "memset0", "memset1", "memsetff", "memsetff", "memset5a", "loop", "loop",
                 "brace"] + (["input"] * 2 if ints_only else [])
        arr = Arr(f"a{index}", elem, dims, wrapped=self.chance(0.7), init=rng.choice(inits),
                  counted=self.chance(0.85))
        arr.wrapper = f"{self.name}_A{index}"
        return arr

    # -- indices -------------------------------------------------------------

    def index(self, arr_counted, n, scope, in_loop):
        """An index in [0, n) from the counters of `scope`, a constant, or
        (where `arr_counted` allows) the thread and the input."""
        rng = self.rng
        if not scope or self.chance(0.08):
            if (not arr_counted or not in_loop) and self.chance(0.5):
                return self.runtime_index(n)
            return Lit(rng.randrange(n))
        if not arr_counted and self.chance(0.15):
            return self.runtime_index(n, scope)
        wrapped = None
        for _ in range(12):
            ix = self.counter_index(n, scope, strict=arr_counted)
            if values_in_range(ix, scope, n):
                return ix
            if wrapped is None or (arr_counted and isinstance(wrapped, UMod)):
                candidate = self.wrap(ix, n)
                if values_in_range(candidate, scope, n):
                    wrapped = candidate
            if wrapped is not None and not arr_counted:
                break
        return wrapped or Lit(rng.randrange(n))

    def runtime_index(self, n, scope=()):
        rng = self.rng
        pow2 = n & (n - 1) == 0
        base = rng.choice(["seed", "(unsigned)(tid + n)", "acc", "in[g + 1]", "(unsigned)n"])
        if scope and self.chance(0.6):
            base = f"({base} + (unsigned){rng.choice(scope).name})"
        if pow2 and self.chance(0.6):
            return Raw(f"(int)({base} & {n - 1}u)")
        return Raw(f"(int)({base} % {n}u)")

    def wrap(self, ix, n):
        if n & (n - 1) == 0 and self.chance(0.8):
            return Bin("&", ix, Lit(n - 1))
        return UMod(ix, n)

    @staticmethod
    def off(c, lo, hi):
        """The counter minus `lo`, in its own type where (int) would cut it."""
        big = not (-(1 << 31) <= lo and hi < (1 << 31))
        return Bin("-", Var(c, raw=big), Lit(lo))

    def counter_index(self, n, scope, strict=False):
        rng = self.rng
        c = scope[-1] if self.chance(0.6) else rng.choice(scope)
        lo, hi = (min(c.values), max(c.values)) if c.values else (0, 0)
        unsigned_raw = not c.signed
        kind = rng.random()
        if kind < 0.35:
            # As it is, or shifted to start at 0.
            if lo >= 0 and hi < n:
                return Var(c, raw=self.chance(0.6))
            if lo > 0 and not c.signed and hi - lo < n and self.chance(0.5):
                return Bin("-", Var(c, raw=True), Lit(lo))
            return self.off(c, lo, hi)
        if kind < 0.45:
            # Reversed.
            return Bin("-", Lit(n - 1), self.off(c, lo, hi))
        if kind < 0.55 and c.step > 1:
            # The iteration number.
            return Bin("/", self.off(c, lo, hi), Lit(c.step))
        if kind < 0.68 and len(scope) >= 2:
            # Two counters: row * width + column.
            other = rng.choice([s for s in scope if s is not c])
            olo = min(other.values) if other.values else 0
            ohi = max(other.values) if other.values else 0
            width = ohi - olo + 1
            return Bin("+", Bin("*", self.off(c, lo, hi), Lit(width)), self.off(other, olo, ohi))
        if kind < 0.78:
            # A mask, on the counter's own type now and then.
            if n & (n - 1) == 0:
                return Bin("&", Var(c, raw=self.chance(0.4)), Lit(n - 1))
            if strict:
                return self.off(c, lo, hi)
            return UMod(Bin("+", Bin("*", Var(c), Lit(rng.choice([1, 3, 5]))), Lit(rng.randrange(4))), n)
        if kind < 0.82:
            return Call("imin", self.off(c, lo, hi), Lit(n - 1)) if self.chance(0.5) else Call(
                "imax", Call("imin", Var(c), Lit(n - 1)), Lit(0))
        if kind < 0.88 and n >= 2:
            # A bool index.
            return Cmp(rng.choice(["<", ">", "==", "!="]), Bin("&", Var(c), Lit(rng.choice([1, 2, 3]))), Lit(
                rng.choice([0, 1])))
        if kind < 0.92:
            big = not (-(1 << 31) <= lo and hi < (1 << 31))
            cond = Cmp(rng.choice(["<", ">"]), Var(c, raw=big), Lit(rng.randint(lo, hi) if hi >= lo else 0))
            return Sel(cond, self.off(c, lo, hi), Bin("-", Lit(n - 1), self.off(c, lo, hi)))
        return Bin("+", Bin("*", Var(c), Lit(rng.choice([2, 3, 5, 7]))), Lit(rng.randrange(8)))

    # -- values, conditions ----------------------------------------------------

    def access(self, arr, scope, in_loop, leaf=None):
        """(text of one leaf of `arr` at indices in range, the leaf)."""
        leaf = leaf or self.rng.choice(arr.leaves())
        idx = [checked(self.index(arr.counted, d, scope, in_loop).c(), d) for d in arr.dims]
        inner = [checked(self.index(arr.counted, d, scope, in_loop).c(), d) for d in leaf.inner_dims()]
        return arr.base() + "".join(f"[{i}]" for i in idx) + leaf.render(inner), leaf

    def element(self, arr, scope, in_loop):
        idx = [checked(self.index(arr.counted, d, scope, in_loop).c(), d) for d in arr.dims]
        return arr.base() + "".join(f"[{i}]" for i in idx)

    def readable_leaf(self, arr):
        choices = [leaf for leaf in arr.leaves() if arr.readable(leaf)]
        return self.rng.choice(choices) if choices else None

    def value(self, ctx, depth=0):
        """An unsigned expression."""
        rng = self.rng
        terms = []
        for _ in range(rng.randint(1, 3 if depth == 0 else 1)):
            kind = rng.random()
            if kind < 0.3 and ctx.scope:
                c = rng.choice(ctx.scope)
                wide = {"long": 64, "long long": 64, "unsigned long long": 64, "__int128": 128,
                        "unsigned __int128": 128}.get(c.ctype)
                if wide and self.chance(0.4):
                    # The counter's high bits (an arithmetic shift where it is signed).
                    shifts = [32, wide - 8] + ([64] if wide == 128 else [])
                    terms.append(f"(unsigned)({c.name} >> {rng.choice(shifts)})")
                else:
                    terms.append(f"(unsigned){c.name}")
            elif kind < 0.45:
                terms.append(rng.choice(ctx.accs))
            elif kind < 0.55:
                terms.append("seed")
            elif kind < 0.62:
                terms.append(rng.choice(["(unsigned)tid", "(unsigned)n"]))
            elif kind < 0.7:
                base = f"(unsigned){ctx.scope[-1].name}" if ctx.scope else "(unsigned)tid"
                terms.append(f"in[({base} + seed) & 1023u]")
            elif kind < 0.88 and depth == 0:
                arr = rng.choice(self.arrays)
                leaf = self.readable_leaf(arr)
                if leaf:
                    text, _ = self.access(arr, ctx.scope, ctx.in_loop, leaf)
                    terms.append(read(leaf, text))
                else:
                    terms.append(f"{rng.randrange(1, 100)}u")
            else:
                terms.append(f"{rng.randrange(1, 100)}u")
        text = terms[0]
        for term in terms[1:]:
            text = f"({text} {rng.choice(['+', '^', '*', '|', '-'])} {term})"
        return text

    def cond(self, ctx):
        rng = self.rng
        kind = rng.random()
        if kind < 0.4 and ctx.scope:
            c = rng.choice(ctx.scope)
            bound = c_int(rng.choice(c.values) if c.values else 0, not c.signed)
            return rng.choice([
                f"((int){c.name} & 1) == 0", f"{c.name} < {bound}",
                f"(unsigned)(int){c.name} % 3u == {rng.randrange(3)}u", f"(int){c.name} > n"])
        if kind < 0.6:
            arr = rng.choice(self.arrays)
            leaf = self.readable_leaf(arr)
            if leaf:
                text, _ = self.access(arr, ctx.scope, ctx.in_loop, leaf)
                if leaf.ty.kind == "bool":
                    return text
                return f"{read(leaf, text)} > {rng.randrange(16)}u"
        if kind < 0.7 and ctx.scope:
            op = "&&" if self.chance(0.5) else "||"
            first = self.cond(ctx)
            return f"{first} {op} {self.cond(ctx)}"
        return f"({rng.choice(ctx.accs)} & {rng.choice([1, 3, 7])}u) == {rng.randrange(2)}u"

    # -- statements -------------------------------------------------------------

    def write(self, ctx):
        rng = self.rng
        arr = rng.choice(self.arrays)
        text, leaf = self.access(arr, ctx.scope, ctx.in_loop)
        value = self.value(ctx)
        ty = leaf.ty
        if arr.readable(leaf) and self.chance(0.4):
            if ty.kind == "bool":
                return Node(f"{text} {rng.choice(['^=', '|=', '&='])} ({value}) & 1u;")
            if ty.kind == "float":
                return Node(rng.choice([f"{text} += {convert(ty, value)};", f"{text} *= 0.5f;"]))
            if not ty.signed or ty.bits <= 16 and not ty.c.startswith("_BitInt"):
                # (`*=` on a type promoted to int overflows it: 65535 * 65535.)
                ops = ["+=", "-=", "^=", "|="] + (["*="] if ty.bits == 8 or ty.bits >= 32 or "_BitInt" in ty.c else [])
                return Node(f"{text} {rng.choice(ops)} {convert(ty, value)};")
            return Node(f"{text} {rng.choice(['^=', '|=', '&='])} {convert(ty, value)};")
        if self.chance(0.2):
            return Node(f"{text} = {self.cond(ctx)} ? {convert(ty, value)} : {convert(ty, self.value(ctx, 1))};")
        return Node(f"{text} = {convert(ty, value)};")

    def reduce_into(self, ctx):
        rng = self.rng
        arr = rng.choice(self.arrays)
        leaf = self.readable_leaf(arr)
        acc = rng.choice(ctx.accs)
        if not leaf:
            return Node(f"{acc} += {self.value(ctx, 1)};")
        text, _ = self.access(arr, ctx.scope, ctx.in_loop, leaf)
        x = read(leaf, text)
        return Node(rng.choice([
            f"{acc} = {acc} * 31u + {x};", f"{acc} ^= {x};", f"{acc} += {x};", f"{acc} = umax({acc}, {x});",
            f"{acc} = umin({acc}, {x} + 3u);", f"{acc} = {acc} > {x} ? {acc} - {x} : {x} - {acc};",
            f"{acc} += {x} > 5u ? 1u : {x};"]))

    def struct_store(self, ctx):
        rng = self.rng
        arr = rng.choice(self.arrays)
        target = self.element(arr, ctx.scope, ctx.in_loop)
        if isinstance(arr.elem, Scalar) or self.chance(0.3):
            return Node(f"{target} = {{}};")
        tmp = self.fresh("t")
        lines = [f"{{", f"  {type_c(arr.elem)} {tmp} = {{}};"]
        for leaf in rng.sample(arr.leaves(), min(2, len(arr.leaves()))):
            inner = [str(rng.randrange(d)) for d in leaf.inner_dims()]
            lines.append(f"  {tmp}{leaf.render(inner)} = {convert(leaf.ty, self.value(ctx, 1))};")
        lines.append(f"  {target} = {tmp};")
        lines.append("}")
        return Node("\n".join(lines))

    def copy_element(self, ctx):
        arr = self.rng.choice(self.arrays)
        return Node(f"{self.element(arr, ctx.scope, ctx.in_loop)} = {self.element(arr, ctx.scope, ctx.in_loop)};")

    def hash_access(self, ctx):
        rng = self.rng
        arr = rng.choice(self.arrays)
        h = self.fresh("h")
        counted = arr.counted or self.chance(0.3)
        if ctx.scope and counted:
            c = rng.choice(ctx.scope)
            base = f"(unsigned){c.name} * 2654435761u + {rng.randrange(1 << 16)}u"
        elif ctx.scope:
            base = f"seed ^ (unsigned){rng.choice(ctx.scope).name}"
        else:
            base = f"{rng.randrange(1 << 16)}u" if counted else "seed"
        # (Each `h ^= (h << 3) ^ (h >> 5)` reads h twice: a long chain is an
        # expression tree exponential in its length, as index analyses see it.)
        steps = rng.choices([1, 2, 3, 4, 6, 8, 12, 16, 24], [8, 8, 8, 6, 6, 4, 2, 1, 1])[0]
        lines = [f"{{", f"  unsigned {h} = {base};"]
        for _ in range(steps):
            lines.append("  " + rng.choice([
                f"{h} ^= ({h} << 3) ^ ({h} >> 5);", f"{h} ^= ({h} << 3) ^ ({h} >> 5);", f"{h} = {h} * 31u + 7u;",
                f"{h} ^= {h} >> 7;", f"{h} += {h} << 2;"]))
        idx = []
        shift = 0
        for d in arr.dims:
            if d & (d - 1) == 0:
                idx.append(checked(f"({h} >> {shift}) & {d - 1}u", d))
            else:
                idx.append(checked(f"({h} >> {shift}) % {d}u", d))
            shift += 4
        leaf = rng.choice(arr.leaves())
        inner = [str(rng.randrange(d)) for d in leaf.inner_dims()]
        target = arr.base() + "".join(f"[{i}]" for i in idx) + leaf.render(inner)
        if arr.readable(leaf) and self.chance(0.5):
            lines.append(f"  {rng.choice(ctx.accs)} += {read(leaf, target)};")
        else:
            lines.append(f"  {target} = {convert(leaf.ty, self.value(ctx, 1) + ' ^ ' + h)};")
        lines.append("}")
        return Node("\n".join(lines))

    def call(self, ctx):
        """A device function taking an element, or the whole array, by value
        (written in the callee), or (now and then) an element's address."""
        rng = self.rng
        structs = [a for a in self.arrays if isinstance(a.elem, Struct)]
        wrapped = [a for a in self.arrays if a.wrapped]
        kind = rng.random()
        noinline = "NOINLINE " if self.chance(0.5) else ""
        if structs and kind < 0.55:
            arr = rng.choice(structs)
            if arr.counted and self.chance(0.6):
                noinline = ""
            ename = type_c(arr.elem)
            fname = self.fresh(f"{self.name}_f")
            body = [f"static DEVICE {noinline}{ename if kind < 0.35 else 'unsigned'} {fname}({ename} s, unsigned v) {{"]
            for leaf in rng.sample(arr.leaves(), min(rng.randint(1, 3), len(arr.leaves()))):
                if leaf.inner_dims():
                    q = "q"
                    inner = [q] + [str(rng.randrange(d)) for d in leaf.inner_dims()[1:]]
                    body.append(f"  for (int q = 0; q < {leaf.inner_dims()[0]}; ++q)")
                    body.append(f"    s{leaf.render(inner)} = {convert(leaf.ty, 'v * 3u + (unsigned)q')};")
                else:
                    body.append(f"  s{leaf.render([])} = {convert(leaf.ty, 'v ^ 0x55u')};")
            if kind < 0.35:
                body.append("  return s;")
            else:
                sums = [read(leaf, 's' + leaf.render(['0'] * len(leaf.inner_dims())))
                        for leaf in arr.leaves() if arr.readable(leaf)] or ["0u"]
                body.append(f"  return {' + '.join(sums[:3])};")
            body.append("}")
            self.funcs[fname] = "\n".join(body)
            elem = self.element(arr, ctx.scope, ctx.in_loop)
            if kind < 0.35:
                return Node(f"{elem} = {fname}({elem}, {self.value(ctx, 1)});")
            return Node(f"{rng.choice(ctx.accs)} += {fname}({elem}, {self.value(ctx, 1)});")
        if wrapped and kind < 0.85:
            arr = rng.choice(wrapped)
            if arr.counted and self.chance(0.6):
                noinline = ""
            fname = self.fresh(f"{self.name}_h")
            leaf = self.readable_leaf(arr)
            wleaf = rng.choice(arr.leaves())
            loops = "".join(f"for (int j{d} = 0; j{d} < {n}; ++j{d}) " for d, n in enumerate(arr.dims))
            jdx = "".join(f"[j{d}]" for d in range(len(arr.dims)))
            winner = [str(rng.randrange(d)) for d in wleaf.inner_dims()]
            body = [f"static DEVICE {noinline}unsigned {fname}({arr.wrapper} a, unsigned v) {{",
                    f"  {loops}a.e{jdx}{wleaf.render(winner)} = {convert(wleaf.ty, 'v + (unsigned)j0')};",
                    "  unsigned r = v;"]
            if leaf:
                rinner = [str(rng.randrange(d)) for d in leaf.inner_dims()]
                body.append(f"  {loops}r = r * 31u + {read(leaf, 'a.e' + jdx + leaf.render(rinner))};")
            body += ["  return r;", "}"]
            self.funcs[fname] = "\n".join(body)
            return Node(f"{rng.choice(ctx.accs)} ^= {fname}({arr.name}, {self.value(ctx, 1)});")
        # The address of an element to a callee that writes through it.
        uncounted = [a for a in self.arrays if not a.counted]
        if not uncounted:
            return self.write(ctx)
        arr = rng.choice(uncounted)
        fname = self.fresh(f"{self.name}_p")
        leaf = rng.choice(arr.leaves())
        inner = [str(rng.randrange(d)) for d in leaf.inner_dims()]
        self.funcs[fname] = "\n".join([
            f"static DEVICE {noinline}void {fname}({type_c(arr.elem)} *p, unsigned v) {{",
            f"  (*p){leaf.render(inner)} = {convert(leaf.ty, 'v')};", "}"])
        return Node(f"{fname}(&{self.element(arr, ctx.scope, ctx.in_loop)}, {self.value(ctx, 1)});")

    def switch(self, ctx, depth):
        rng = self.rng
        if ctx.scope and self.chance(0.6):
            c = rng.choice(ctx.scope)
            sel = rng.choice([f"(int){c.name} & 3", f"(int)((unsigned)(int){c.name} % 5u)"])
        else:
            sel = f"(int)({rng.choice(ctx.accs)} & 3u)"
        segments = [f"switch ({sel}) {{"]
        for label in rng.sample(["case 0:", "case 1:", "case 2:", "case 3:", "default:"], rng.randint(2, 4)):
            segments.append(f"{label} {{")
            segments.append(self.items(ctx, depth + 1, rng.randint(1, 2)))
            segments.append("  break;\n}" if self.chance(0.8) else "}")
        segments.append("}")
        return Node(*segments)

    def counter(self, depth, outer_product):
        """(type, start, step, up, trips, signed, range) of a counter that
        never wraps."""
        rng = self.rng
        for _ in range(50):
            ctype, bits, signed = rng.choices(COUNTERS, COUNTER_WEIGHTS)[0]
            sizes = [d for a in self.arrays for d in a.dims + [x for leaf in a.leaves() for x in leaf.inner_dims()]]
            if sizes and self.chance(0.5):
                # As many trips as an array has elements.
                trips = rng.choice(sizes)
            elif depth == 0:
                trips = rng.choice(TRIPS + [4, 8, 8, 16, 16, 12, 32, 64, 5, 6])
            else:
                trips = rng.choice([0, 1, 2, 2, 3, 4, 4, 4, 7, 8, 8, 16])
            if outer_product * max(trips, 1) > 2048:
                continue
            step = rng.choice([1, 1, 1, 1, 2, 3])
            up = self.chance(0.75)
            if up:
                start = rng.choice([0, 0, 0, 0, 0, 0, 1, 3, -1, -5, -trips * step // 2, -trips * step, 100])
            else:
                start = rng.choice([trips * step - 1, trips * step, trips * step + 2, trips * step // 2, 100])
            if bits >= 64 and self.chance(0.25):
                # Far from 0: a base the counter's low 32 bits do not show.
                bases = [1 << 32, 1 << 40, -(1 << 35), (1 << 62)] + (
                    [1 << 64, (1 << 64) - 4, -(1 << 70), 1 << 100] if bits == 128 else [])
                start += rng.choice(bases)
            lo = start if up else start - trips * step
            hi = start + trips * step if up else start
            low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
            if ctype == "char":
                low, high = 0, 127  # char is signed or not: stay where both agree
            if low <= lo and hi <= high:
                return ctype, start, step, up, trips, signed, (low, high)
        return "int", 0, 1, True, 8, True, (-(1 << 31), (1 << 31) - 1)

    def loop(self, ctx, depth, last_inner=False, goto=None):
        """A loop with a body; `last_inner`: its last statement is a loop;
        `goto`: the innermost body leaves for this label."""
        rng = self.rng
        ctype, start, step, up, trips, signed, (low, high) = self.counter(depth, ctx.product)
        name = self.fresh("i")
        values = [start + (k * step if up else -k * step) for k in range(trips)]
        final = start + (trips * step if up else -trips * step)
        runtime_trips = depth <= 1 and goto is None and self.chance(0.04)
        form = rng.choices(["for", "fork", "while", "do"], [10, 2, 2, 2 if trips else 0])[0]
        if runtime_trips:
            form, ctype, start, step, up, signed = "for", "int", 0, 1, True, True
            extra = rng.choice([0, 1, 4, 9])
            values = list(range(7 + extra))
            test = f"{name} < n + {extra}"
        else:
            cmp = rng.choice(["<", "<", "<=", "!="] if up else [">", ">", ">=", "!="])
            last = values[-1] if values else (start - 1 if up else start + 1)
            limit = {"<": final if step == 1 or self.chance(0.5) else last + 1, "<=": last, "!=": final,
                     ">": final, ">=": last}[cmp]
            if not low <= limit <= high:
                cmp, limit = ("<" if up else ">"), final
            test = f"{name} {cmp} {c_int(limit, not signed)}"
        if up:
            inc = rng.choice([f"++{name}", f"{name}++", f"{name} += 1"]) if step == 1 else f"{name} += {step}"
        else:
            inc = rng.choice([f"--{name}", f"{name}--"]) if step == 1 else f"{name} -= {step}"
        counter = Counter(name, ctype, values, step, signed)
        early = goto is None and self.chance(0.08)
        body_ctx = ctx.inner(counter, counted=not runtime_trips and not early and goto is None,
                             can_continue=form in ("for", "fork"), trips=16 if runtime_trips else max(trips, 1))
        kcounter = None
        if form == "fork":
            kcounter = Counter(self.fresh("k"), "int", list(range(len(values))), 1, True)
            body_ctx.scope.append(kcounter)
        local = None
        if self.chance(0.3):
            local = self.fresh("s")
            body_ctx.accs = ctx.accs + [local]
        body = self.items(body_ctx, depth + 1, rng.randint(1, 4))
        if early:
            body.insert(rng.randrange(len(body) + 1), Node(f"if ({self.cond(body_ctx)}) break;"))
        if goto and not last_inner:
            body.insert(rng.randrange(len(body) + 1),
                        Node(f"if (({rng.choice(body_ctx.accs)} ^ seed) % 11u == 3u) goto {goto};"))
        if last_inner or (depth < 2 and self.chance(0.25)):
            body.append(self.loop(body_ctx, depth + 1, goto=goto if last_inner else None))
        pragma = rng.choices(["", "#pragma unroll 1\n", "#pragma unroll 2\n", "#pragma unroll 4\n",
                              "#pragma unroll\n"], [16, 3, 3, 1, 1 if trips <= 16 else 0])[0]
        pre, post = [], []
        if local:
            pre.append(f"unsigned {local} = {rng.choice(['0u', 'seed', '1u'])};")
            post.append(f"{rng.choice(ctx.accs)} ^= {local};")
        if form == "for":
            head, tail = f"{pragma}for ({ctype} {name} = {c_int(start, not signed)}; {test}; {inc}) {{", "}"
        elif form == "fork":
            pre.append(f"int {kcounter.name} = 0;")
            head = f"{pragma}for ({ctype} {name} = {c_int(start, not signed)}; {test}; {inc}, ++{kcounter.name}) {{"
            tail = "}"
        elif form == "while":
            # (The increment is no statement of the body: dropping it would
            # make the loop endless.)
            pre.append(f"{ctype} {name} = {c_int(start, not signed)};")
            head, tail = f"{pragma}while ({test}) {{", f"  {inc};\n}}"
        else:
            pre.append(f"{ctype} {name} = {c_int(start, not signed)};")
            head, tail = f"{pragma}do {{", f"  {inc};\n}} while ({test});"
        if pre or post:
            return Node("{", [Node(*pre, head, body, tail, *post)], "}")
        return Node(head, body, tail)

    def goto_nest(self, ctx):
        """Nested loops that leave together through a goto."""
        label = self.fresh(f"{self.name}_done")
        outer = self.loop(ctx, 0, last_inner=True, goto=label)
        return Node("{", [outer], f"}}\n{label}:;")

    def items(self, ctx, depth, count):
        rng = self.rng
        out = []
        for _ in range(count):
            kinds = ["write", "write", "write", "write", "reduce", "reduce", "reduce", "if", "struct", "copy", "hash",
                     "call", "global"]
            if ctx.in_loop:
                kinds += ["switch", "write", "reduce"] + (["continue"] if ctx.can_continue else [])
            if depth < 3:
                kinds += ["loop"] * (2 if depth < 2 else 1)
            kind = rng.choice(kinds)
            if kind == "write":
                out.append(self.write(ctx))
            elif kind == "reduce":
                out.append(self.reduce_into(ctx))
            elif kind == "if":
                then = self.items(ctx, depth + 1, rng.randint(1, 2))
                if self.chance(0.6):
                    out.append(Node(f"if ({self.cond(ctx)}) {{", then, "} else {",
                                    self.items(ctx, depth + 1, rng.randint(1, 2)), "}"))
                else:
                    out.append(Node(f"if ({self.cond(ctx)}) {{", then, "}"))
            elif kind == "struct":
                out.append(self.struct_store(ctx))
            elif kind == "global":
                # A store to global memory: no branch around it can become
                # a select.
                slot = f"(unsigned){rng.choice(ctx.scope).name} & 7u" if ctx.scope else str(rng.randrange(8))
                out.append(Node(f"res[64 + g * 8 + ({slot})] = {self.value(ctx, 1)};"))
            elif kind == "copy":
                out.append(self.copy_element(ctx))
            elif kind == "hash":
                out.append(self.hash_access(ctx))
            elif kind == "call":
                out.append(self.call(ctx))
            elif kind == "switch":
                out.append(self.switch(ctx, depth))
            elif kind == "continue":
                out.append(Node(f"if ({self.cond(ctx)}) continue;"))
            elif kind == "loop":
                out.append(self.loop(ctx, depth))
        return out


@dataclass
class Ctx:
    scope: list
    accs: list
    in_loop: bool = False
    counted: bool = True
    can_continue: bool = False
    product: int = 1

    def inner(self, counter, counted, can_continue, trips):
        return Ctx(self.scope + [counter], list(self.accs), True, self.counted and counted, can_continue,
                   self.product * trips)

    def copy(self, **changes):
        return Ctx(**{**self.__dict__, "scope": list(self.scope), "accs": list(self.accs), **changes})


def make_kernel(seed, k):
    rng = random.Random(f"cuda-{seed}-{k}")
    gen = Gen(rng, f"k{k}")
    left = 1024
    for index in range(rng.choices([1, 2, 3], [5, 4, 2])[0]):
        if left < 16:
            break
        arr = gen.array(index, min(left, rng.choice([64, 128, 256, 256, 512, 1024])))
        left -= arr.size()
        gen.arrays.append(arr)
    ctx = Ctx([], ["acc"])
    stmts = []
    for _ in range(rng.randint(1, 3)):
        kind = rng.random()
        if kind < 0.72:
            stmts.append(gen.loop(ctx, 0, last_inner=gen.chance(0.2)))
        elif kind < 0.77:
            stmts.append(gen.goto_nest(ctx))
        else:
            stmts.extend(gen.items(ctx, 2, rng.randint(1, 2)))
    return Kernel(gen.name, gen.structs, gen.arrays, gen.funcs, stmts)


def make_kernels(seed, count=None):
    """The kernels of the file of `seed` (each from a seed of its own)."""
    count = count or random.Random(f"cuda-{seed}").randint(3, 6)
    return [make_kernel(seed, k) for k in range(count)]


def render(kernels):
    return PRELUDE + (CHECK_MACRO if CHECKED else "") + "\n" + "\n\n".join(kernel.render() for kernel in kernels) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seed", type=int)
    parser.add_argument("--kernels", type=int, help="kernels in the file (default: 3 to 6, by the seed)")
    parser.add_argument("--checked", action="store_true", help="trap at any index out of range (tests the generator)")
    args = parser.parse_args()
    global CHECKED
    CHECKED = args.checked
    sys.stdout.write(render(make_kernels(args.seed, args.kernels)))


if __name__ == "__main__":
    main()
