#!/usr/bin/env python3
"""A seeded generator of LLVM-dialect modules in the shapes ptxcc acts on.

    generate.py SEED [--kernels N]      prints one module

A module is a list of kernels, each a list of actions on its parameters;
every action may bring device functions of its own. The same seed gives the
same module, and a module can be rebuilt from any subset of its kernels and
actions (fuzz.py reduces a failing module that way).

What it generates:
- types: structs nested to depth 3, packed and empty structs, arrays,
  vectors of i1/i8/f16/bf16/f32, i1 to i128, f16/bf16/f32/f64, pointers in
  spaces 0, 1, 3 and 5;
- kernels (`ptx_kernelcc` or `nvvm.kernel`, sm_60 or sm_90, some in nested
  modules) with byval parameters (with and without `align`, some declared
  less aligned than their type (issue 41, rule B), `readonly`,
  `nocapture`, `nvvm.grid_constant`: attributes only where they are true),
  an output pointer, an input pointer and an integer;
- actions on a byval parameter: constant-GEP loads at any depth, dynamic
  indices, volatile loads, stores, memset, memcpy from and into, escapes to
  reading, writing and unknown (declared) callees, indirect calls through a
  taken address, recursive and variadic callees, ptrtoint, select and block
  arguments over pointers (passed by `llvm.cond_br`, `llvm.br` and
  `llvm.switch`: issue 41, rule A), byval calls, the whole struct as an SSA value
  passed to a device function, aggregate results (stored whole or read
  leaf by leaf; half of their makers call a function first: rule E),
  atomics, local arrays in loops, dynamic allocas;
- per-thread arrays in counted loops (issue 31): bottom- and top-tested,
  nested over a cleared 2-D array written in part, and the refusals (a
  trip count from the input, the array passed to a callee, an index read
  from memory);
- device functions of every linkage (internal, private, external,
  linkonce_odr, weak) and callee attributes;
- the shapes ordinary CUDA has (issue 29): chains and cycles of externally
  visible and `linkonce_odr` device functions that pass a struct on (as an
  SSA value or a `byval` pointer) and return it, shared by every kernel and
  action of one struct type (so they are called from several kernels and
  from each other), recursion through a function's own address (the
  wrapper an externally visible function keeps), and -O0's temporaries (an
  alloca filled by memcpy, passed `byval` to a `linkonce_odr` template).

Every value read is folded into an i32 that each thread stores into the
output buffer (out[tid]), so that a different value is seen by the harness.
Writes through a `nvvm.grid_constant` parameter, reads of uninitialised
memory and out-of-bounds indices are never generated: the input is a valid
program under the harness's inputs (test/harness/README.md).

CUDA source with the loops and the data people write (issue 40) is
generate_cuda.py's; fuzz_cuda.py runs it through clang and the harness.

(Longer than 500 lines on purpose: `Module.render_action` is one branch per
action kind, and each kind's IR is kept next to the others so that a new
kind is written beside the ones it resembles. The type model is in
fuzz_types.py.)
"""

import hashlib
import os
import random
import sys
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz_types import (  # noqa: E402
    I1,
    I32,
    Ty,
    TypeMaker,
    align_of,
    arrays,
    known_align,
    leaves,
    path_offset,
    scalar_size,
    size_of,
)

# ----------------------------------------------------------------------------
# Rendering


class Body:
    """The text of one function body, with fresh value names and blocks."""

    def __init__(self, prefix):
        self.lines = []
        self.counter = 0
        self.blocks = 0
        self.prefix = prefix

    def name(self, hint="v"):
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, text):
        self.lines.append("  " + text)

    def value(self, text, hint="v"):
        name = self.name(hint)
        self.emit(f"{name} = {text}")
        return name

    def const(self, value, ty="i32"):
        return self.value(f"llvm.mlir.constant({value} : {ty}) : {ty}", "c")

    def block(self):
        self.blocks += 1
        return f"^bb{self.blocks}"

    def label(self, block, args=""):
        self.lines.append(f"{block}{args}:")


def count_down(body, depth):
    """Emits `if depth == 0` with its branch and opens the other block, in
    which `depth - 1` is computed; returns (the block for 0, depth - 1, the
    constant 1)."""
    zero = body.const(0)
    done = body.value(f'llvm.icmp "eq" {depth}, {zero} : i32', "done")
    stop, deeper = body.block(), body.block()
    body.emit(f"llvm.cond_br {done}, {stop}, {deeper}")
    body.label(deeper)
    one = body.const(1)
    less = body.value(f"llvm.sub {depth}, {one} : i32", "less")
    return stop, less, one


def gep(body, base, ty, path, dynamic=None):
    """A GEP to `path` inside `ty` from `base` (path indices after the
    leading 0); `dynamic` replaces the last index with an i32 value."""
    indices = ["0"] + [str(p) for p in path]
    operand_types = "!llvm.ptr"
    if dynamic is not None:
        indices[-1] = dynamic
        operand_types = "!llvm.ptr, i32"
    return body.value(
        f"llvm.getelementptr {base}[{', '.join(indices)}] : ({operand_types}) -> !llvm.ptr, {ty.mlir()}", "p"
    )


def fold(body, acc, value, ty):
    """acc * 31 + (value as i32)."""
    if ty.kind == "vec":
        element = ty.elements[0]
        index = body.const(ty.count - 1)
        value = body.value(f"llvm.extractelement {value}[{index} : i32] : {ty.mlir()}", "e")
        ty = element
    if ty.kind == "ptr":
        if ty.bits in (0, 1):
            value = body.value(f"llvm.load {value} : {ty.mlir()} -> i32", "d")
            ty = I32
        else:
            return acc
    if ty.kind == "float":
        bits = scalar_size(ty) * 8
        value = body.value(f"llvm.bitcast {value} : {ty.name} to i{bits}", "b")
        ty = Ty("int", bits)
    if ty.bits < 32:
        value = body.value(f"llvm.zext {value} : i{ty.bits} to i32", "z")
    elif ty.bits > 32:
        value = body.value(f"llvm.trunc {value} : i{ty.bits} to i32", "t")
    k = body.const(31)
    mul = body.value(f"llvm.mul {acc}, {k} : i32", "m")
    return body.value(f"llvm.add {mul}, {value} : i32", "acc")


def constant_of(body, ty, seed):
    """A constant of a scalar or vector type."""
    if ty.kind == "int":
        return body.const(seed % (2 if ty.bits == 1 else 100), f"i{ty.bits}")
    if ty.kind == "float":
        return body.value(f"llvm.mlir.constant({seed % 7}.5 : {ty.name}) : {ty.name}", "f")
    if ty.kind == "vec":
        element = ty.elements[0]
        if element.kind == "int":
            values = ", ".join(str((seed + i) % (2 if element.bits == 1 else 100)) for i in range(ty.count))
            if element.bits == 1:
                values = ", ".join("true" if (seed + i) % 2 else "false" for i in range(ty.count))
        else:
            values = ", ".join(f"{(seed + i) % 7}.5" for i in range(ty.count))
        return body.value(f"llvm.mlir.constant(dense<[{values}]> : {ty.mlir()}) : {ty.mlir()}", "k")
    return None


def align_attr(ty, base=None, offset=0):
    """The alignment attribute of an access of `ty` at `offset` from a base
    aligned to `base` (default: `ty`'s own alignment)."""
    align = known_align(offset, align_of(ty), base or align_of(ty))
    return f"{{alignment = {align} : i64}}"


def load_leaf(body, base, ty, leaf, volatile=False, base_align=None):
    """A load of `leaf` of the `ty` at `base` (aligned to `base_align`,
    default `ty`'s ABI alignment)."""
    pointer = gep(body, base, ty, leaf.path) if leaf.path else base
    flag = " volatile" if volatile else ""
    attr = align_attr(leaf.ty, base_align or align_of(ty), path_offset(ty, leaf.path))
    return body.value(f"llvm.load{flag} {pointer} {attr} : !llvm.ptr -> {leaf.ty.mlir()}", "l")


def store_leaf(body, base, ty, leaf, value, base_align=None):
    """A store of `value` into `leaf` of the `ty` at `base`."""
    pointer = gep(body, base, ty, leaf.path) if leaf.path else base
    attr = align_attr(leaf.ty, base_align or align_of(ty), path_offset(ty, leaf.path))
    body.emit(f"llvm.store {value}, {pointer} {attr} : {leaf.ty.mlir()}, !llvm.ptr")


def has_i1(ty):
    """Whether an aggregate holds an i1 scalar (bytes other than 0 and 1
    copied into one would be an undefined i1)."""
    if ty.kind in ("struct", "array"):
        return any(has_i1(e) for e in ty.elements)
    return ty == I1


def writable_leaf(rng, ty):
    """A leaf a store can give a known value (no pointers)."""
    candidates = [leaf for leaf in leaves(ty) if leaf.ty.kind in ("int", "float", "vec")]
    return rng.choice(candidates) if candidates else None


LINKAGES = ["internal", "internal", "internal", "private", "", "", "linkonce_odr", "weak"]


# ----------------------------------------------------------------------------
# Actions: each renders into a kernel body and may add device functions.


@dataclass
class Param:
    name: str
    ty: Ty
    align: int  # 0: no llvm.align
    writes: bool = False  # some action writes through it
    captures: bool = False  # some action lets the address escape for good
    grid_constant: bool = False
    readonly_nocapture: bool = False


@dataclass
class Action:
    kind: str
    param: int
    seed: int
    other: int = -1  # a second parameter (select, phi)


WRITING = {"store", "memset", "memcpy_into", "writer"}
CAPTURING = {"ptrtoint", "unknown", "indirect", "variadic", "select", "phi", "spill"}
ACTION_KINDS = [
    "read", "read", "read", "read_dynamic", "volatile", "store", "memset", "memcpy_into", "memcpy_from",
    "reader", "reader", "writer", "unknown", "indirect", "recursive", "variadic", "ptrtoint", "select", "phi",
    "byval_call", "ssa_value", "aggregate_result", "atomic", "local_loop", "read_chain", "read_bytes",
    "read_sub", "spill", "byval_relay", "memcpy_dynamic", "atomic_load", "alloca_in_loop",
    "value_chain", "value_chain", "value_cycle", "wrapper_recursion", "o0_temporary",
]
# Added to a kernel by a generator of its own (so that the modules of the
# seeds before it stay what they were): per-thread arrays in counted loops.
EXTRA_ACTION_KINDS = ["array_loops"]
# The linkages of the functions the CUDA shapes share (mostly externally
# visible: what non-static __device__ functions and templates get).
SHARED_LINKAGES = ["", "", "linkonce_odr", "linkonce_odr", "internal", "weak"]
# Rare: lower-alloca refuses a dynamic alloca by default, and the refusal
# hides everything else the module would test.
RARE_ACTION_KINDS = ["dynamic_alloca"]


@dataclass
class Kernel:
    name: str
    params: list
    actions: list
    seed: int
    cc: str = "ptx_kernelcc"  # or "nvvm.kernel"
    chip: str = ""  # target_cpu, "" for none
    nested: bool = False


class Module:
    """Renders kernels and the device functions their actions need."""

    def __init__(self):
        self.functions = []  # (nested, text)
        self.declared = set()
        self.shared = set()  # (nested, name) of the shared functions defined

    def function(self, nested, text):
        self.functions.append((nested, text))

    def render_kernel(self, kernel):
        rng = random.Random(kernel.seed)
        body = Body(kernel.name)
        params = kernel.params
        tid = body.value("nvvm.read.ptx.sreg.tid.x : i32", "tid")
        acc = body.const(7)
        for index, action in enumerate(kernel.actions):
            acc = self.render_action(kernel, body, action, f"{kernel.name}_a{index}", tid, acc)
        out = gep_flat(body, "%out", tid)
        body.emit(f"llvm.store {acc}, {out} {{alignment = 4 : i64}} : i32, !llvm.ptr")
        body.emit("llvm.return")
        signature = ["%out: !llvm.ptr", "%in: !llvm.ptr", "%n: i32"]
        for p in params:
            attrs = [f"llvm.byval = {p.ty.mlir()}"]
            if p.align:
                attrs.append(f"llvm.align = {p.align} : i64")
            if p.readonly_nocapture:
                attrs += ["llvm.readonly", "llvm.nocapture"]
            if p.grid_constant:
                attrs.append("nvvm.grid_constant")
            signature.append(f"{p.name}: !llvm.ptr {{{', '.join(attrs)}}}")
        fn_attrs = []
        if kernel.cc == "nvvm.kernel" or any(p.grid_constant for p in params):
            fn_attrs.append("nvvm.kernel")
        if kernel.chip:
            fn_attrs.append(f'target_cpu = "{kernel.chip}"')
        cc = "ptx_kernelcc " if kernel.cc == "ptx_kernelcc" else ""
        attributes = f" attributes {{{', '.join(fn_attrs)}}}" if fn_attrs else ""
        text = f"llvm.func {cc}@{kernel.name}({', '.join(signature)}){attributes} {{\n"
        text += "\n".join(body.lines) + "\n}\n"
        self.function(kernel.nested, text)

    def render_action(self, kernel, body, action, tag, tid, acc):
        rng = random.Random(action.seed)
        param = kernel.params[action.param]
        p, ty = param.name, param.ty
        base = param.align or align_of(ty)  # what the byval pointer is aligned to
        nested = kernel.nested
        kind = action.kind
        leaf = rng.choice(leaves(ty))
        if kind in ("read", "volatile"):
            value = load_leaf(body, p, ty, leaf, volatile=kind == "volatile", base_align=base)
            return fold(body, acc, value, leaf.ty)
        if kind == "read_dynamic":
            found = [a for a in arrays(ty) if a[1].count & (a[1].count - 1) == 0]
            element_leaves = leaves(found[0][1].elements[0]) if found else []
            if not found or not element_leaves:
                return fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
            path, array = rng.choice(found)
            element = array.elements[0]
            element_leaf = rng.choice(leaves(element) or [None])
            if element_leaf is None:
                return acc
            mask = body.const(array.count - 1)
            index = body.value(f"llvm.and {tid}, {mask} : i32", "i")
            pointer = gep(body, p, ty, path + (0,), dynamic=index)
            if element_leaf.path:
                pointer = gep(body, pointer, element, element_leaf.path)
            offset = path_offset(ty, path) + path_offset(element, element_leaf.path)
            align = known_align(offset, align_of(element_leaf.ty), base, known_align(size_of(element), 1 << 12))
            value = body.value(
                f"llvm.load {pointer} {{alignment = {align} : i64}} : !llvm.ptr -> {element_leaf.ty.mlir()}", "l")
            return fold(body, acc, value, element_leaf.ty)
        if kind in ("memset", "memcpy_into") and has_i1(ty):
            kind = "store"
        if kind == "store":
            target = writable_leaf(rng, ty)
            if target is None:
                return acc
            store_leaf(body, p, ty, target, constant_of(body, target.ty, action.seed), base_align=base)
            return fold(body, acc, load_leaf(body, p, ty, target, base_align=base), target.ty)
        if kind in ("memset", "memcpy_into"):
            length = body.const(size_of(ty), "i64")
            if kind == "memset":
                byte = body.const(action.seed % 2, "i8")
                body.emit(f'"llvm.intr.memset"({p}, {byte}, {length}) <{{isVolatile = false}}> : (!llvm.ptr, i8, i64) -> ()')
            else:
                body.emit(f'"llvm.intr.memcpy"({p}, %in, {length}) <{{isVolatile = false}}> : (!llvm.ptr, !llvm.ptr, i64) -> ()')
            target = writable_leaf(rng, ty)
            return fold(body, acc, load_leaf(body, p, ty, target, base_align=base), target.ty) if target else acc
        if kind == "memcpy_from":
            one = body.const(1)
            slot = body.value(f"llvm.alloca {one} x {ty.mlir()} {{alignment = {align_of(ty)} : i64}} : (i32) -> !llvm.ptr", "s")
            length = body.const(size_of(ty), "i64")
            body.emit(f'"llvm.intr.memcpy"({slot}, {p}, {length}) <{{isVolatile = false}}> : (!llvm.ptr, !llvm.ptr, i64) -> ()')
            return fold(body, acc, load_leaf(body, slot, ty, leaf), leaf.ty)
        if kind in ("reader", "recursive", "indirect"):
            name = f"{tag}_reader"
            linkage = rng.choice(LINKAGES) if kind == "reader" else "internal"
            attrs = " {llvm.readonly, llvm.nocapture}" if kind == "reader" and rng.random() < 0.3 else ""
            self.reader(nested, name, linkage, ty, leaf, attrs, base, recursive=kind == "recursive")
            if kind == "recursive":
                depth = body.const(action.seed % 3)
                result = body.value(f"llvm.call @{name}({p}, {depth}) : (!llvm.ptr, i32) -> i32", "r")
            elif kind == "indirect":
                address = body.value(f"llvm.mlir.addressof @{name} : !llvm.ptr", "fp")
                result = body.value(f"llvm.call {address}({p}) : !llvm.ptr, (!llvm.ptr) -> i32", "r")
            else:
                result = body.value(f"llvm.call @{name}({p}) : (!llvm.ptr) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "writer":
            target = writable_leaf(rng, ty)
            if target is None:
                return acc
            name = f"{tag}_writer"
            self.writer(nested, name, rng.choice(LINKAGES), ty, target, action.seed, base)
            body.emit(f"llvm.call @{name}({p}, {tid}) : (!llvm.ptr, i32) -> ()")
            return fold(body, acc, load_leaf(body, p, ty, target, base_align=base), target.ty)
        if kind == "unknown":
            name = f"{tag}_external"
            self.function(nested, f"llvm.func @{name}(!llvm.ptr {{llvm.dereferenceable = {max(size_of(ty), 1)} : i64}}) -> i32\n")
            result = body.value(f"llvm.call @{name}({p}) : (!llvm.ptr) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "variadic":
            name = f"{tag}_variadic"
            inner = Body(name)
            value = load_leaf(inner, "%p", ty, leaf, base_align=base)
            result = fold(inner, inner.const(3), value, leaf.ty)
            self.function(nested, f"llvm.func internal @{name}(%p: !llvm.ptr, ...) -> i32 {{\n"
                          + "\n".join(inner.lines) + f"\n  llvm.return {result} : i32\n}}\n")
            extra = body.const(action.seed % 10)
            result = body.value(
                f"llvm.call @{name}({p}, {extra}) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "ptrtoint":
            as_int = body.value(f"llvm.ptrtoint {p} : !llvm.ptr to i64", "pi")
            zero = body.const(0, "i64")
            nonnull = body.value(f'llvm.icmp "ne" {as_int}, {zero} : i64', "nz")
            return fold(body, acc, nonnull, I1)
        if kind in ("select", "phi"):
            other = kernel.params[action.other] if action.other >= 0 else param
            if other.ty != ty:
                other = param
            both = min(base, other.align or align_of(ty))
            one = body.const(1)
            bit = body.value(f"llvm.and {tid}, {one} : i32", "bit")
            zero = body.const(0)
            cond = body.value(f'llvm.icmp "eq" {bit}, {zero} : i32', "cond")
            if kind == "select":
                chosen = body.value(f"llvm.select {cond}, {p}, {other.name} : i1, !llvm.ptr", "sel")
            elif action.seed % 3 == 0:
                # An llvm.switch passes the pointer to the merge itself
                # (issue 41, rule A: it was taken for an escape).
                right, merge = body.block(), body.block()
                body.emit(f"llvm.switch {bit} : i32, {merge}({p} : !llvm.ptr) [1: {right}]")
                body.label(right)
                body.emit(f"llvm.br {merge}({other.name} : !llvm.ptr)")
                chosen = body.name("phi")
                body.label(merge, f"({chosen}: !llvm.ptr)")
            else:
                left, right, merge = body.block(), body.block(), body.block()
                body.emit(f"llvm.cond_br {cond}, {left}, {right}")
                body.label(left)
                body.emit(f"llvm.br {merge}({p} : !llvm.ptr)")
                body.label(right)
                body.emit(f"llvm.br {merge}({other.name} : !llvm.ptr)")
                chosen = body.name("phi")
                body.label(merge, f"({chosen}: !llvm.ptr)")
            return fold(body, acc, load_leaf(body, chosen, ty, leaf, base_align=both), leaf.ty)
        if kind == "byval_call":
            name = f"{tag}_byval"
            writes_copy = rng.random() < 0.3
            self.byval_callee(nested, name, rng.choice(LINKAGES), ty, leaf, writes_copy, action.seed)
            result = body.value(f"llvm.call @{name}({p}) : (!llvm.ptr {{llvm.byval = {ty.mlir()}}}) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "ssa_value":
            name = f"{tag}_value"
            whole = body.value(f"llvm.load {p} {align_attr(ty, base)} : !llvm.ptr -> {ty.mlir()}", "w")
            self.value_callee(nested, name, rng.choice(LINKAGES), ty, leaf)
            result = body.value(f"llvm.call @{name}({whole}) : ({ty.mlir()}) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "aggregate_result":
            name = f"{tag}_make"
            self.maker(nested, name, rng.choice(LINKAGES), ty, action.seed)
            made = body.value(f"llvm.call @{name}({tid}) : (i32) -> {ty.mlir()}", "mk")
            target = writable_leaf(rng, ty) or leaf
            if rng.random() < 0.5:
                one = body.const(1)
                slot = body.value(f"llvm.alloca {one} x {ty.mlir()} {{alignment = {align_of(ty)} : i64}} : (i32) -> !llvm.ptr", "s")
                body.emit(f"llvm.store {made}, {slot} {align_attr(ty)} : {ty.mlir()}, !llvm.ptr")
                return fold(body, acc, load_leaf(body, slot, ty, target), target.ty)
            position = ", ".join(str(i) for i in target.path)
            value = body.value(f"llvm.extractvalue {made}[{position}] : {ty.mlir()}", "x")
            return fold(body, acc, value, target.ty)
        if kind == "atomic":
            slot = gep_flat(body, "%out", body.const(64 + action.seed % 8))
            old = body.value(f"llvm.atomicrmw add {slot}, {tid} monotonic : !llvm.ptr, i32", "old")
            acc = fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
            return body.value(f"llvm.xor {acc}, {old} : i32", "acc") if action.seed % 2 else acc
        if kind == "local_loop":
            one = body.const(1)
            array = body.value(f"llvm.alloca {one} x !llvm.array<8 x i32> {{alignment = 4 : i64}} : (i32) -> !llvm.ptr", "arr")
            start = body.const(0)
            loop, exit_ = body.block(), body.block()
            body.emit(f"llvm.br {loop}({start} : i32)")
            i = body.name("i")
            body.label(loop, f"({i}: i32)")
            slot = body.value(f"llvm.getelementptr {array}[0, {i}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>", "p")
            body.emit(f"llvm.store {i}, {slot} {{alignment = 4 : i64}} : i32, !llvm.ptr")
            step = body.value(f"llvm.add {i}, {one} : i32", "i")
            eight = body.const(8)
            more = body.value(f'llvm.icmp "slt" {step}, {eight} : i32', "more")
            body.emit(f"llvm.cond_br {more}, {loop}({step} : i32), {exit_}")
            body.label(exit_)
            seven = body.const(7)
            index = body.value(f"llvm.and %n, {seven} : i32", "i")
            slot = body.value(f"llvm.getelementptr {array}[0, {index}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>", "p")
            value = body.value(f"llvm.load {slot} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
            acc = fold(body, acc, value, I32)
            return fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
        if kind == "read_chain":
            # One GEP per step, as front ends that index field by field do.
            pointer, current = p, ty
            for index in leaf.path:
                pointer = gep(body, pointer, current, (index,))
                current = current.elements[index] if current.kind == "struct" else current.elements[0]
            attr = align_attr(leaf.ty, base, path_offset(ty, leaf.path))
            return fold(body, acc, body.value(f"llvm.load {pointer} {attr} : !llvm.ptr -> {leaf.ty.mlir()}", "l"), leaf.ty)
        if kind == "read_bytes":
            # An i8 GEP by the byte offset, as clang -O2 writes field reads.
            offset = path_offset(ty, leaf.path)
            pointer = body.value(f"llvm.getelementptr {p}[{offset}] : (!llvm.ptr) -> !llvm.ptr, i8", "p") if offset else p
            attr = align_attr(leaf.ty, base, offset)
            return fold(body, acc, body.value(f"llvm.load {pointer} {attr} : !llvm.ptr -> {leaf.ty.mlir()}", "l"), leaf.ty)
        if kind == "read_sub":
            # A nested aggregate loaded whole, one leaf extracted.
            if len(leaf.path) < 2:
                return fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
            outer = leaf.path[:1]
            sub = ty.elements[outer[0]] if ty.kind == "struct" else ty.elements[0]
            pointer = gep(body, p, ty, outer)
            attr = align_attr(sub, base, path_offset(ty, outer))
            whole = body.value(f"llvm.load {pointer} {attr} : !llvm.ptr -> {sub.mlir()}", "w")
            position = ", ".join(str(i) for i in leaf.path[1:])
            return fold(body, acc, body.value(f"llvm.extractvalue {whole}[{position}] : {sub.mlir()}", "x"), leaf.ty)
        if kind == "spill":
            # The pointer stored into a slot and read back, as at -O0.
            one = body.const(1)
            slot = body.value(f"llvm.alloca {one} x !llvm.ptr {{alignment = 8 : i64}} : (i32) -> !llvm.ptr", "slot")
            body.emit(f"llvm.store {p}, {slot} {{alignment = 8 : i64}} : !llvm.ptr, !llvm.ptr")
            again = body.value(f"llvm.load {slot} {{alignment = 8 : i64}} : !llvm.ptr -> !llvm.ptr", "again")
            return fold(body, acc, load_leaf(body, again, ty, leaf, base_align=base), leaf.ty)
        if kind == "byval_relay":
            # A device function that passes its own byval copy on by value.
            inner, outer_name = f"{tag}_relayed", f"{tag}_relay"
            self.byval_callee(nested, inner, rng.choice(LINKAGES), ty, leaf, rng.random() < 0.3, action.seed)
            relay = Body(outer_name)
            result = relay.value(f"llvm.call @{inner}(%p) : (!llvm.ptr {{llvm.byval = {ty.mlir()}}}) -> i32", "r")
            relay.emit(f"llvm.return {result} : i32")
            self.define(nested, rng.choice(LINKAGES), outer_name, f"%p: !llvm.ptr {{llvm.byval = {ty.mlir()}}}", "i32",
                        relay)
            result = body.value(f"llvm.call @{outer_name}({p}) : (!llvm.ptr {{llvm.byval = {ty.mlir()}}}) -> i32", "r")
            return fold(body, acc, result, I32)
        if kind == "memcpy_dynamic":
            # A copy of a run-time number of bytes (at most the struct).
            one = body.const(1)
            slot = body.value(f"llvm.alloca {one} x {ty.mlir()} {{alignment = {align_of(ty)} : i64}} : (i32) -> !llvm.ptr", "s")
            wide = body.value("llvm.zext %n : i32 to i64", "n")
            size = body.const(size_of(ty), "i64")
            scaled = body.value(f"llvm.mul {wide}, {body.const(max(size_of(ty) // 4, 1), 'i64')} : i64", "len")
            small = body.value(f'llvm.icmp "ult" {scaled}, {size} : i64', "fits")
            length = body.value(f"llvm.select {small}, {scaled}, {size} : i1, i64", "len")
            body.emit(f'"llvm.intr.memcpy"({slot}, {p}, {length}) <{{isVolatile = false}}> : (!llvm.ptr, !llvm.ptr, i64) -> ()')
            return fold(body, acc, load_leaf(body, slot, ty, leaf), leaf.ty)
        if kind == "atomic_load":
            target = next((l for l in leaves(ty) if l.ty.kind == "int" and l.ty.bits in (32, 64)), None)
            if target is None:
                return fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
            offset = path_offset(ty, target.path)
            natural = align_of(target.ty)
            if known_align(offset, natural, base) < natural:  # atomics need natural alignment
                return fold(body, acc, load_leaf(body, p, ty, target, base_align=base), target.ty)
            pointer = gep(body, p, ty, target.path) if target.path else p
            value = body.value(
                f"llvm.load {pointer} atomic monotonic {{alignment = {natural} : i64}} : !llvm.ptr -> {target.ty.mlir()}", "l")
            return fold(body, acc, value, target.ty)
        if kind == "alloca_in_loop":
            # A slot allocated in a loop body (lower-alloca hoists it).
            zero, one, four = body.const(0), body.const(1), body.const(4)
            loop, exit_ = body.block(), body.block()
            body.emit(f"llvm.br {loop}({zero}, {acc} : i32, i32)")
            i, running = body.name("i"), body.name("acc")
            body.label(loop, f"({i}: i32, {running}: i32)")
            slot = body.value(f"llvm.alloca {one} x i32 {{alignment = 4 : i64}} : (i32) -> !llvm.ptr", "s")
            body.emit(f"llvm.store {i}, {slot} {{alignment = 4 : i64}} : i32, !llvm.ptr")
            value = body.value(f"llvm.load {slot} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
            folded = fold(body, running, value, I32)
            step = body.value(f"llvm.add {i}, {one} : i32", "i")
            more = body.value(f'llvm.icmp "slt" {step}, {four} : i32', "more")
            body.emit(f"llvm.cond_br {more}, {loop}({step}, {folded} : i32, i32), {exit_}")
            body.label(exit_)
            return fold(body, folded, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
        if kind in ("value_chain", "value_cycle", "wrapper_recursion", "o0_temporary"):
            return self.render_cuda_shape(kind, nested, body, p, ty, base, tid, acc, action.seed)
        if kind == "array_loops":
            acc = self.render_array_loops(nested, body, tag, tid, acc, action.seed)
            return fold(body, acc, load_leaf(body, p, ty, leaf, base_align=base), leaf.ty)
        if kind == "dynamic_alloca":
            one = body.const(1)
            count = body.value(f"llvm.or %n, {one} : i32", "cnt")
            slot = body.value(f"llvm.alloca {count} x i32 {{alignment = 4 : i64}} : (i32) -> !llvm.ptr", "dyn")
            body.emit(f"llvm.store {tid}, {slot} {{alignment = 4 : i64}} : i32, !llvm.ptr")
            value = body.value(f"llvm.load {slot} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
            return fold(body, acc, value, I32)
        raise ValueError(kind)

    def render_cuda_shape(self, kind, nested, body, p, ty, base, tid, acc, seed):
        """The shapes of ordinary CUDA (see the module documentation): calls
        of functions shared by every action on a struct of type `ty`."""
        leaf = self.shared_leaf(ty)
        if leaf is None:  # only pointers: nothing for the functions to change
            first = leaves(ty)[0]
            return fold(body, acc, load_leaf(body, p, ty, first, base_align=base), first.ty)
        names = self.shared_functions(nested, ty)
        whole = body.value(f"llvm.load {p} {align_attr(ty, base)} : !llvm.ptr -> {ty.mlir()}", "w")
        if kind == "value_chain":
            made = body.value(f"llvm.call @{names['chain'][0]}({whole}, {tid}) : ({ty.mlir()}, i32) -> {ty.mlir()}", "ch")
        elif kind == "value_cycle":
            depth = body.const(seed % 4)
            made = body.value(f"llvm.call @{names['even']}({whole}, {depth}) : ({ty.mlir()}, i32) -> {ty.mlir()}", "cy")
        elif kind == "wrapper_recursion":
            depth = body.const(seed % 4)
            result = body.value(f"llvm.call @{names['recursive']}({whole}, {depth}) : ({ty.mlir()}, i32) -> i32", "r")
            return fold(body, acc, result, I32)
        else:
            # -O0: the argument is a temporary filled by memcpy, passed byval.
            one = body.const(1)
            temporary = body.value(
                f"llvm.alloca {one} x {ty.mlir()} {{alignment = {align_of(ty)} : i64}} : (i32) -> !llvm.ptr", "tmp")
            length = body.const(size_of(ty), "i64")
            body.emit(f'"llvm.intr.memcpy"({temporary}, {p}, {length}) <{{isVolatile = false}}> '
                      ": (!llvm.ptr, !llvm.ptr, i64) -> ()")
            made = body.value(
                f"llvm.call @{names['template']}({temporary}, {tid}) : "
                f"(!llvm.ptr {{llvm.byval = {ty.mlir()}}}, i32) -> {ty.mlir()}", "tp")
        position = ", ".join(str(i) for i in leaf.path)
        value = body.value(f"llvm.extractvalue {made}[{position}] : {ty.mlir()}", "x")
        return fold(body, acc, value, leaf.ty)

    @staticmethod
    def shared_leaf(ty):
        """The leaf the shared functions of `ty` change (the same for every
        caller)."""
        return writable_leaf(random.Random(0), ty)

    def shared_functions(self, nested, ty):
        """The names of the functions shared by the CUDA shapes on `ty`,
        defined once per module (and per nested module): everything about
        them follows from the type, so every caller gets the same ones.

        - `chain`: three links, each `T f(T s, i32 t)` that sets the leaf to
          a constant and calls the next link (the middle one through a
          `byval` temporary: `T f(T* byval s, i32 t)`), the last returns it;
        - `even`/`odd`: `T f(T s, i32 d)`, each calling the other with d - 1
          until d is 0 (a cycle);
        - `recursive`: `i32 f(T s, i32 d)` calling itself through its own
          address while d > 0;
        - `template`: `T f(T* byval s, i32 t)`, -O0 style: the byval copy
          is loaded whole, changed and returned."""
        key = "".join(c if c.isalnum() else "_" for c in ty.mlir()).strip("_")
        key = hashlib.sha256(ty.mlir().encode()).hexdigest()[:10] if len(key) > 40 else key
        rng = random.Random(ty.mlir())
        linkage = lambda: rng.choice(SHARED_LINKAGES)  # noqa: E731
        names = {
            "chain": [f"chain{i}_{key}" for i in range(3)],
            "even": f"even_{key}",
            "odd": f"odd_{key}",
            "recursive": f"recursive_{key}",
            "template": f"template_{key}",
        }
        if (nested, key) in self.shared:
            return names
        self.shared.add((nested, key))
        t = ty.mlir()
        leaf = self.shared_leaf(ty)
        position = ", ".join(str(i) for i in leaf.path)
        byval = f"!llvm.ptr {{llvm.byval = {t}}}"

        def changed(body, whole, seed):
            value = constant_of(body, leaf.ty, seed)
            return body.value(f"llvm.insertvalue {value}, {whole}[{position}] : {t}", "u")

        # The chain: link 0 (value) -> link 1 (byval) -> link 2 (value).
        chain = names["chain"]
        for index in range(3):
            body = Body(chain[index])
            whole = "%s" if index != 1 else body.value(f"llvm.load %s {align_attr(ty)} : !llvm.ptr -> {t}", "w")
            made = changed(body, whole, index + 1)
            if index == 0:
                one = body.const(1)
                temporary = body.value(f"llvm.alloca {one} x {t} {{alignment = {align_of(ty)} : i64}} : (i32) -> !llvm.ptr", "tmp")
                body.emit(f"llvm.store {made}, {temporary} {align_attr(ty)} : {t}, !llvm.ptr")
                made = body.value(f"llvm.call @{chain[1]}({temporary}, %t) : ({byval}, i32) -> {t}", "r")
            elif index == 1:
                made = body.value(f"llvm.call @{chain[2]}({made}, %t) : ({t}, i32) -> {t}", "r")
            body.emit(f"llvm.return {made} : {t}")
            parameter = f"%s: {byval}" if index == 1 else f"%s: {t}"
            self.define(nested, linkage(), chain[index], f"{parameter}, %t: i32", t, body)
        # The cycle.
        for name, other, seed in ((names["even"], names["odd"], 5), (names["odd"], names["even"], 6)):
            body = Body(name)
            stop, less, _ = count_down(body, "%d")
            inner = body.value(f"llvm.call @{other}({changed(body, '%s', seed)}, {less}) : ({t}, i32) -> {t}", "r")
            body.emit(f"llvm.return {inner} : {t}")
            body.label(stop)
            body.emit(f"llvm.return %s : {t}")
            self.define(nested, linkage(), name, f"%s: {t}, %d: i32", t, body)
        # Recursion through the function's own address.
        body = Body(names["recursive"])
        stop, less, one = count_down(body, "%d")
        address = body.value(f"llvm.mlir.addressof @{names['recursive']} : !llvm.ptr", "fp")
        inner = body.value(f"llvm.call {address}(%s, {less}) : !llvm.ptr, ({t}, i32) -> i32", "r")
        bumped = body.value(f"llvm.add {inner}, {one} : i32", "r")
        body.emit(f"llvm.return {bumped} : i32")
        body.label(stop)
        value = body.value(f"llvm.extractvalue %s[{position}] : {t}", "x")
        body.emit(f"llvm.return {fold(body, body.const(17), value, leaf.ty)} : i32")
        self.define(nested, linkage(), names["recursive"], f"%s: {t}, %d: i32", "i32", body)
        # The -O0 template: a linkonce_odr function taking a byval temporary.
        body = Body(names["template"])
        whole = body.value(f"llvm.load %s {align_attr(ty)} : !llvm.ptr -> {t}", "w")
        body.emit(f"llvm.return {changed(body, whole, 9)} : {t}")
        self.define(nested, "linkonce_odr", names["template"], f"%s: {byval}, %t: i32", t, body)
        return names

    # Device functions ---------------------------------------------------

    def render_array_loops(self, nested, body, tag, tid, acc, seed):
        """Per-thread arrays filled and read by loops (issue 31), in the
        shapes promote-local-arrays promotes and the ones it must refuse:
        by seed, a bottom-tested (clang -O2) fill and sum, a top-tested
        (MLIR's scf.for) one with a value carried through the header,
        nested loops over a cleared 2-D array that write part of it, a
        trip count from the input, the array passed to a callee, and an
        index read from memory. Returns the new accumulator."""
        variant = seed % 6
        i32 = "i32"
        one, zero = body.const(1), body.const(0)
        count = 4 + seed % 5
        shape = f"!llvm.array<{count} x i32>"
        if variant == 2:
            rows, columns = 2 + seed % 2, 3
            shape = f"!llvm.array<{rows} x array<{columns} x i32>>"
        array = body.value(f"llvm.alloca {one} x {shape} {{alignment = 4 : i64}} : (i32) -> !llvm.ptr", "arr")

        def loop(start, bound, step_value, carried=None, top=False):
            """Opens a counted loop; returns (counter, carried value, a
            closer that takes the carried value on and returns it after)."""
            head, exit_ = body.block(), body.block()
            counter = body.name("k")
            values = [start] + ([carried] if carried else [])
            types = ", ".join([i32] * len(values))
            body.emit(f"llvm.br {head}({', '.join(values)} : {types})")
            running = body.name("run") if carried else None
            arguments = [f"{counter}: i32"] + ([f"{running}: i32"] if carried else [])
            body.label(head, f"({', '.join(arguments)})")
            if top:
                inside = body.block()
                more = body.value(f'llvm.icmp "slt" {counter}, {bound} : i32', "more")
                body.emit(f"llvm.cond_br {more}, {inside}, {exit_}")
                body.label(inside)

            def close(new_carried=None):
                step = body.value(f"llvm.add {counter}, {step_value} : i32", "k")
                passed = [step] + ([new_carried] if carried else [])
                if top:
                    body.emit(f"llvm.br {head}({', '.join(passed)} : {types})")
                else:
                    more = body.value(f'llvm.icmp "slt" {step}, {bound} : i32', "more")
                    body.emit(f"llvm.cond_br {more}, {head}({', '.join(passed)} : {types}), {exit_}")
                body.label(exit_)
                # A top-tested loop leaves from its header: what it carried
                # is the header's argument there.
                return running if top else new_carried

            return counter, running, close

        def element(index):
            return body.value(f"llvm.getelementptr {array}[0, {index}] : (!llvm.ptr, i32) -> !llvm.ptr, {shape}", "p")

        bound = body.const(count)
        if variant == 2:
            # Nested loops over a cleared 2-D array; the inner loop writes
            # only its first two columns, and the sum reads all of them.
            size = body.const(rows * columns * 4, "i64")
            byte = body.const(0, "i8")
            body.emit(f'"llvm.intr.memset"({array}, {byte}, {size}) <{{isVolatile = false}}> : (!llvm.ptr, i8, i64) -> ()')
            row_bound, two, three = body.const(rows), body.const(2), body.const(columns)
            r, _, close_rows = loop(zero, row_bound, one)
            c, _, close_columns = loop(zero, two, one)
            slot = body.value(f"llvm.getelementptr {array}[0, {r}, {c}] : (!llvm.ptr, i32, i32) -> !llvm.ptr, {shape}", "p")
            mixed = body.value(f"llvm.mul {r}, {three} : i32", "m")
            mixed = body.value(f"llvm.add {mixed}, {c} : i32", "m")
            mixed = body.value(f"llvm.add {mixed}, {tid} : i32", "m")
            body.emit(f"llvm.store {mixed}, {slot} {{alignment = 4 : i64}} : i32, !llvm.ptr")
            close_columns()
            close_rows()
            r, running, close_rows = loop(zero, row_bound, one, carried=acc)
            c, inner_running, close_columns = loop(zero, three, one, carried=running)
            slot = body.value(f"llvm.getelementptr {array}[0, {r}, {c}] : (!llvm.ptr, i32, i32) -> !llvm.ptr, {shape}", "p")
            value = body.value(f"llvm.load {slot} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
            inner = close_columns(fold(body, inner_running, value, I32))
            return close_rows(inner)
        # Fill: array[k] = in[k] * k + tid (a trip count from the input in
        # variant 3).
        fill_bound = bound
        if variant == 3:
            seven = body.const(count - 1)
            raw = body.value(f"llvm.load %in {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
            fill_bound = body.value(f"llvm.and {raw}, {seven} : i32", "b")
            fill_bound = body.value(f"llvm.or {fill_bound}, {one} : i32", "b")
            # Clear first: the loop may not write every element.
            size = body.const(count * 4, "i64")
            byte = body.const(0, "i8")
            body.emit(f'"llvm.intr.memset"({array}, {byte}, {size}) <{{isVolatile = false}}> : (!llvm.ptr, i8, i64) -> ()')
        top = variant == 1
        k, _, close = loop(zero, fill_bound, one, top=top)
        source = gep_flat(body, "%in", k)
        loaded = body.value(f"llvm.load {source} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
        product = body.value(f"llvm.mul {loaded}, {k} : i32", "m")
        product = body.value(f"llvm.add {product}, {tid} : i32", "m")
        index = k
        if variant == 5:
            # An index read from memory: a histogram, which stays in memory.
            mask = body.const(count - 1 if count in (4, 8) else 3)
            index = body.value(f"llvm.and {loaded}, {mask} : i32", "h")
            body.emit(f"llvm.store {zero}, {element(k)} {{alignment = 4 : i64}} : i32, !llvm.ptr")
        body.emit(f"llvm.store {product}, {element(index)} {{alignment = 4 : i64}} : i32, !llvm.ptr")
        close()
        if variant == 4:
            # The array escapes to a callee that sums it.
            name = f"{tag}_sum"
            callee = Body(name)
            total = callee.const(0)
            for position in range(count):
                slot = callee.value(
                    f"llvm.getelementptr %p[0, {position}] : (!llvm.ptr) -> !llvm.ptr, {shape}", "p")
                value = callee.value(f"llvm.load {slot} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
                total = callee.value(f"llvm.add {total}, {value} : i32", "t")
            callee.emit(f"llvm.return {total} : i32")
            self.define(nested, "internal", name, "%p: !llvm.ptr", "i32", callee)
            result = body.value(f"llvm.call @{name}({array}) : (!llvm.ptr) -> i32", "r")
            return fold(body, acc, result, I32)
        # Sum what the fill wrote (variant 3: its first element, which it
        # always writes), carrying the sum through the loop.
        if variant == 3:
            return fold(body, acc, body.value(f"llvm.load {element(zero)} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l"), I32)
        k, running, close = loop(zero, bound, one, carried=acc, top=top)
        value = body.value(f"llvm.load {element(k)} {{alignment = 4 : i64}} : !llvm.ptr -> i32", "l")
        return close(fold(body, running, value, I32))

    def define(self, nested, linkage, name, params, result, body):
        """Adds `llvm.func LINKAGE @NAME(PARAMS) -> RESULT { BODY }`."""
        head = " ".join(part for part in ("llvm.func", linkage, f"@{name}({params})") if part)
        arrow = f" -> {result}" if result else ""
        self.function(nested, f"{head}{arrow} {{\n" + "\n".join(body.lines) + "\n}\n")

    def reader(self, nested, name, linkage, ty, leaf, attrs, base, recursive=False):
        body = Body(name)
        if recursive:
            stop, less, _ = count_down(body, "%depth")
            inner = body.value(f"llvm.call @{name}(%p, {less}) : (!llvm.ptr, i32) -> i32", "r")
            body.emit(f"llvm.return {inner} : i32")
            body.label(stop)
        value = load_leaf(body, "%p", ty, leaf, base_align=base)
        result = fold(body, body.const(5), value, leaf.ty)
        body.emit(f"llvm.return {result} : i32")
        params = f"%p: !llvm.ptr{attrs}" + (", %depth: i32" if recursive else "")
        self.define(nested, linkage, name, params, "i32", body)

    def writer(self, nested, name, linkage, ty, target, seed, base):
        body = Body(name)
        store_leaf(body, "%p", ty, target, constant_of(body, target.ty, seed), base_align=base)
        body.emit("llvm.return")
        self.define(nested, linkage, name, "%p: !llvm.ptr, %v: i32", "", body)

    def byval_callee(self, nested, name, linkage, ty, leaf, writes_copy, seed):
        body = Body(name)
        acc = body.const(11)
        target = writable_leaf(random.Random(seed), ty) if writes_copy else None
        if target:
            store_leaf(body, "%p", ty, target, constant_of(body, target.ty, seed))
            acc = fold(body, acc, load_leaf(body, "%p", ty, target), target.ty)
        acc = fold(body, acc, load_leaf(body, "%p", ty, leaf), leaf.ty)
        body.emit(f"llvm.return {acc} : i32")
        self.define(nested, linkage, name, f"%p: !llvm.ptr {{llvm.byval = {ty.mlir()}}}", "i32", body)

    def value_callee(self, nested, name, linkage, ty, leaf):
        body = Body(name)
        position = ", ".join(str(i) for i in leaf.path)
        value = body.value(f"llvm.extractvalue %s[{position}] : {ty.mlir()}", "x")
        result = fold(body, body.const(13), value, leaf.ty)
        body.emit(f"llvm.return {result} : i32")
        self.define(nested, linkage, name, f"%s: {ty.mlir()}", "i32", body)

    def maker(self, nested, name, linkage, ty, seed):
        body = Body(name)
        # Half the makers call a function before building their result
        # (issue 41, rule E: a result above 16 bytes through an sret pointer
        # would be live across the call); its result is the first i32 leaf.
        # (Its own stream of choices: the others' are unchanged.)
        ticked = None
        if random.Random(f"{seed}-{name}-calls").random() < 0.5:
            tick = Body(f"{name}_tick")
            tick.emit(f"llvm.return {tick.value('llvm.add %t, ' + tick.const(1) + ' : i32', 'n')} : i32")
            self.function(nested, f"llvm.func internal @{name}_tick(%t: i32) -> i32 attributes {{no_inline}} {{\n"
                          + "\n".join(tick.lines) + "\n}\n")
            ticked = body.value(f"llvm.call @{name}_tick(%t) : (i32) -> i32", "k")
        made = body.value(f"llvm.mlir.poison : {ty.mlir()}", "u")
        for index, leaf in enumerate(leaves(ty, limit=64)):
            if ticked is not None and leaf.ty.mlir() == "i32":
                value, ticked = ticked, None
            else:
                value = constant_of(body, leaf.ty, seed + index)
            if value is None:  # a pointer: a null one
                value = body.value(f"llvm.mlir.zero : {leaf.ty.mlir()}", "null")
            position = ", ".join(str(i) for i in leaf.path)
            made = body.value(f"llvm.insertvalue {value}, {made}[{position}] : {ty.mlir()}", "u")
        body.emit(f"llvm.return {made} : {ty.mlir()}")
        self.define(nested, linkage, name, "%t: i32", ty.mlir(), body)

    def text(self):
        top = [text for nested, text in self.functions if not nested]
        inner = [text for nested, text in self.functions if nested]
        out = "\n".join(top)
        if inner:
            indented = "\n".join("  " + line if line else line for line in "\n".join(inner).splitlines())
            out += "\nmodule @nested {\n" + indented + "\n}\n"
        return out


def gep_flat(body, base, index):
    return body.value(f"llvm.getelementptr {base}[{index}] : (!llvm.ptr, i32) -> !llvm.ptr, i32", "o")


# ----------------------------------------------------------------------------
# The module of a seed


def make_kernels(seed, count=None):
    """The kernels of the module of `seed` (each action with its own seed)."""
    rng = random.Random(seed)
    types = TypeMaker(rng)
    count = count or rng.randint(1, 4)
    # One chip for the module: llc compiles a module for one -mcpu.
    chip = rng.choice(["", "", "sm_90", "sm_60"])
    kernels = []
    for k in range(count):
        # Kernels of one module often pass the same struct (and then call
        # the same shared device functions).
        earlier = [param.ty for kernel in kernels for param in kernel.params]
        shared = rng.choice(earlier) if earlier and rng.random() < 0.4 else types.struct()
        params = []
        for i in range(rng.randint(1, 3)):
            ty = shared if i and rng.random() < 0.5 else types.struct()
            align = rng.choice([0, align_of(ty), align_of(ty), 16])
            # Now and then declared less aligned than its type (issue 41,
            # rule B: the local copy took the type's alignment). (Its own
            # stream: the other seeds' modules stay as they were.)
            if align_of(ty) > 8 and random.Random(f"{seed}-{k}-{i}-align").random() < 0.3:
                align = 8
            params.append(Param(f"%s{i}", ty, align))
        actions = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.choice(RARE_ACTION_KINDS if rng.random() < 0.004 else ACTION_KINDS)
            index = rng.randrange(len(params))
            other = rng.randrange(len(params))
            actions.append(Action(kind, index, rng.randrange(1 << 30), other))
        extra = random.Random(f"{seed}-{k}-extra")
        if extra.random() < 0.35:
            kind = extra.choice(EXTRA_ACTION_KINDS)
            actions.insert(extra.randrange(len(actions) + 1), Action(kind, extra.randrange(len(params)), extra.randrange(1 << 30)))
        kernel = Kernel(f"k{k}", params, actions, rng.randrange(1 << 30),
                        cc=rng.choice(["ptx_kernelcc", "ptx_kernelcc", "nvvm.kernel"]),
                        chip=chip, nested=rng.random() < 0.15)
        settle_attributes(kernel, rng)
        kernels.append(kernel)
    return kernels


def settle_attributes(kernel, rng):
    """Attributes only where they are true: grid constants and readonly +
    nocapture on parameters nothing writes (or captures)."""
    for index, param in enumerate(kernel.params):
        kinds = {a.kind for a in kernel.actions if a.param == index}
        kinds |= {a.kind for a in kernel.actions if a.other == index and a.kind in ("select", "phi")}
        param.writes = bool(kinds & WRITING)
        param.captures = bool(kinds & CAPTURING)
        param.grid_constant = not param.writes and rng.random() < 0.25
        param.readonly_nocapture = not param.writes and not param.captures and rng.random() < 0.25


def render(kernels):
    module = Module()
    for kernel in kernels:
        module.render_kernel(kernel)
    return module.text()


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--kernels" else None
    sys.stdout.write(render(make_kernels(seed, count)))


if __name__ == "__main__":
    main()
