#!/usr/bin/env python3
"""A differential check on a real GPU: llc alone against ptxcc, kernel by
kernel, every byte of memory compared.

    gpu_diff.py prepare --out DIR FILE.cu...   here (no GPU): a bundle in DIR
    gpu_diff_runner.py DIR OUT                 on the GPU machine (DIR/gpu_diff_runner.py)
    gpu_diff.py check OUT                      here: the runner's results, summarised

`prepare` compiles each .cu with clang (device IR at -O2, and at -O0 with
-disable-O0-optnone, as test/harness/diffexec.py does), then makes two PTX
files per module: `llc` alone, and `ptxcc-opt --ptxcc-pipeline --emit=ptx`.
For each kernel (`define ... ptx_kernel`) it writes a launch spec (JSON):
the grid (2 blocks of 32 threads), one 64 KiB buffer of 32-bit words 0-15
per pointer, each parameter's bytes as the NVPTX data layout places them
(test/fuzz/fuzz_types.py's model): integers 0-7 (i1: 0-1), floats from a
few exact values, byval structs field by field over padding of random
bytes 0-15, their pointer fields pointing at buffers of their own. A kernel
whose parameters cannot be fed (a pointer into shared or local memory, an
unknown type) is listed as skipped, with why.

Functions the module declares but does not define get a stub, the same in
both PTX files: it folds its arguments (integers, floats, the first byte
behind a pointer, a byval argument's fields) into a per-thread slot of a
global log, `__gpu_diff_log`, which the runner compares like any global,
and returns a small value made from them. The stub is compiled by llc from
the module's own declaration and put where the PTX declared the function
(`.extern .func`), so both sides call the same code through their own call
sequences. vprintf, malloc, free and __assertfail are the driver's.

When NVIDIA's ptxas is at hand (scripts/nvidia_tools.py; --no-ptxas: not
used) every PTX file is assembled for the chip here, into `llc.cubin` and
`ptxcc.cubin` beside the PTX: its verdicts are in the manifest (so the GPU
machine's JIT should not meet an error first), its version too. The runner
runs each kernel from the cubins as well (loaded as they are, no JIT): a
second assembler, newer than the driver's, to tell an assembler's reading
of a PTX file from the file's meaning.

The kernels of test/e2e/Inputs/gpu-move-param.cu (a probe of device
functions that write their own by-value struct) carry in their specs the
bytes they must leave (`expected`, computed here from the source's
formulas): the runner tells which flavours left them, a reference that
needs no assembler. Their arguments hold no 0 (drawn again until none
does), which would hide a field read wrong as 0.

The bundle holds everything the GPU machine needs (the runner, stdlib
only; the PTX; the cubins; the specs; manifest.json): copy DIR there and
run `python3 DIR/gpu_diff_runner.py DIR OUT` (`--only MODULE[:KERNEL]` for
a part of it).
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "test", "fuzz"))
import gpu_diff_runner as runner  # noqa: E402
from fuzz_types import Ty, align_of, field_offsets, size_of  # noqa: E402
from ptx_metrics import strip_attributes  # noqa: E402

GRID = [2, 1, 1]
BLOCK = [32, 1, 1]
BUFFER_BYTES = 64 * 1024
MAX_BUFFERS = 32
MAX_LEAVES = 4096
SMALL_FLOATS = (0.5, 1.0, 2.0, 3.25, -1.5, 0.0, 7.0, -0.25)  # runtime.c's small_floats
SMALL_HALVES = (0x3800, 0x3C00, 0x4000, 0x4280, 0xBE00, 0x0000, 0x4700, 0xB400)
# Declared functions the driver's JIT provides.
DRIVER_FUNCTIONS = {"vprintf", "malloc", "free", "__assertfail"}
LOG_SLOTS = 64  # __gpu_diff_log: one i64 per thread of the grid (2 x 32)


class Unfeedable(Exception):
    """A kernel parameter the runner cannot make a value for."""


class ToolError(Exception):
    pass


# ----------------------------------------------------------------------------
# LLVM IR text: types, named structs, signatures


FLOATS = {"half": "f16", "bfloat": "bf16", "float": "f32", "double": "f64"}
NAME = r'(?:%[-\w.$]+|%"[^"]*")'


class TypeParser:
    """LLVM IR type syntax -> fuzz_types.Ty, with the module's named
    structs (`%struct.S = type { ... }`)."""

    def __init__(self, ll):
        self.bodies = dict(re.findall(rf"^({NAME}) = type (.*?)\s*$", ll, re.M))
        self.resolved = {}

    def named(self, name):
        if name not in self.resolved:
            body = self.bodies.get(name)
            if body is None or body == "opaque":
                raise Unfeedable(f"the type {name} has no body")
            self.resolved[name] = None  # a recursive type is not a parameter anyone passes
            ty, rest = self.parse(body)
            if rest.strip():
                raise Unfeedable(f"cannot read the type {name} = {body}")
            self.resolved[name] = ty
        if self.resolved[name] is None:
            raise Unfeedable(f"the type {name} is recursive")
        return self.resolved[name]

    def parse(self, text):
        """(Ty, the rest of the text) for the type at the start of `text`."""
        text = text.lstrip()
        match = re.match(r"ptr(?:\s+addrspace\((\d+)\))?(?![\w.])", text)
        if match:
            return Ty("ptr", int(match.group(1) or 0)), text[match.end():]
        match = re.match(r"i(\d+)(?![\w.])", text)
        if match:
            return Ty("int", int(match.group(1))), text[match.end():]
        match = re.match(r"(half|bfloat|float|double)(?![\w.])", text)
        if match:
            return Ty("float", name=FLOATS[match.group(1)]), text[match.end():]
        match = re.match(r"([\[<])\s*(\d+)\s+x\s+", text)
        if match:
            element, rest = self.parse(text[match.end():])
            rest = rest.lstrip()
            close = "]" if match.group(1) == "[" else ">"
            if not rest.startswith(close):
                raise Unfeedable(f"cannot read the type {text[:60]!r}")
            kind = "array" if close == "]" else "vec"
            return Ty(kind, elements=(element,), count=int(match.group(2))), rest[1:]
        packed = text.startswith("<{")
        if packed or text.startswith("{"):
            rest = text[2 if packed else 1:].lstrip()
            fields = []
            close = "}>" if packed else "}"
            while not rest.startswith(close):
                field, rest = self.parse(rest)
                fields.append(field)
                rest = rest.lstrip()
                if rest.startswith(","):
                    rest = rest[1:].lstrip()
            return Ty("struct", elements=tuple(fields), packed=packed), rest[len(close):]
        match = re.match(NAME, text)
        if match:
            return self.named(match.group(0)), text[match.end():]
        raise Unfeedable(f"cannot read the type {text[:60]!r}")

    def parse_all(self, text):
        ty, rest = self.parse(text)
        if rest.strip():
            raise Unfeedable(f"cannot read the type {text!r}")
        return ty


def split_top(text):
    """`text` split at commas outside brackets of every kind."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def bracketed(text, start):
    """The index just past the bracket closing the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{<":
            depth += 1
        elif text[i] in ")]}>":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced brackets")


class Param:
    """One parameter of a signature: its type text and Ty, and the
    attributes that matter (byval/sret type, align, ext)."""

    def __init__(self, text, types):
        self.text = text
        self.ty, rest = types.parse(text)
        self.type_text = text[: len(text) - len(rest)].strip()
        self.byval = self.sret = None
        self.byval_text = None
        for attribute in ("byval", "sret"):
            match = re.search(rf"\b{attribute}\(", rest)
            if match:
                end = bracketed(rest, match.end() - 1)
                inner = rest[match.end() : end - 1]
                setattr(self, attribute, types.parse_all(inner))
                if attribute == "byval":
                    self.byval_text = inner.strip()
        match = re.search(r"\balign (\d+)", rest)
        self.align = int(match.group(1)) if match else None
        self.grid_constant = '"nvvm.grid_constant"' in rest
        # The attributes a stub must repeat for the same PTX signature.
        keep = re.findall(r"\b(?:byval|sret)\([^()]*\)|\balign \d+|\bsignext\b|\bzeroext\b|\binreg\b", rest)
        self.abi_attributes = " ".join(keep)


class Function:
    """A `define` or `declare` line: name, return type, parameters."""

    def __init__(self, line, types):
        match = re.search(r'@("[^"]*"|[-\w.$]+)\(', line)
        self.name = match.group(1).strip('"')
        head = line[: match.start()]
        close = bracketed(line, match.end() - 1)
        inside = line[match.end() : close - 1]
        self.variadic = inside.strip().endswith("...")
        self.params = [Param(p, types) for p in split_top(inside) if p != "..."]
        self.kernel = " ptx_kernel " in f" {head} "
        # The return type: the first suffix of the head that parses whole.
        words = head.split()[1:]
        self.ret = self.ret_text = None
        for i in range(len(words)):
            candidate = " ".join(words[i:])
            if candidate == "void":
                self.ret_text = "void"
                break
            try:
                self.ret = types.parse_all(candidate)
                self.ret_text = candidate
                break
            except Unfeedable:
                continue
        self.ret_attributes = " ".join(w for w in words if w in ("signext", "zeroext"))


# ----------------------------------------------------------------------------
# Values: the spec of each kernel


def leaves_of(ty, offset=0, out=None):
    """(offset, scalar Ty) of every scalar inside `ty` (arrays: every
    element, up to MAX_LEAVES leaves)."""
    out = [] if out is None else out
    if len(out) >= MAX_LEAVES:
        return out
    if ty.kind == "struct":
        for field, at in zip(ty.elements, field_offsets(ty)):
            leaves_of(field, offset + at, out)
    elif ty.kind == "array":
        step = size_of(ty.elements[0])
        for i in range(ty.count):
            leaves_of(ty.elements[0], offset + i * step, out)
    elif ty.kind == "vec":
        element = ty.elements[0]
        if element.kind == "int" and element.bits < 8:
            out.append((offset, Ty("int", size_of(ty) * 8)))  # packed bits: one integer
        else:
            for i in range(ty.count):
                leaves_of(element, offset + i * size_of(element), out)
    else:
        out.append((offset, ty))
    return out


def type_name(ty):
    if ty.kind == "int":
        return f"i{ty.bits}"
    if ty.kind == "float":
        return ty.name
    return "ptr" if ty.bits == 0 else f"ptr<{ty.bits}>"


class Values:
    """Makes one kernel's inputs from a seed."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.buffers = []
        self.zeros = 0  # integers and floats drawn as 0

    def buffer(self, of):
        if len(self.buffers) == MAX_BUFFERS:
            raise Unfeedable(f"more than {MAX_BUFFERS} pointers to fill")
        self.buffers.append({"id": len(self.buffers), "bytes": BUFFER_BYTES, "seed": self.rng.getrandbits(32),
                             "of": of})
        return self.buffers[-1]["id"]

    def scalar(self, ty, data, offset, pointers, of):
        """Writes a small value of scalar `ty` at data[offset]; returns its
        description."""
        size = size_of(ty)
        if ty.kind == "ptr":
            if ty.bits not in (0, 1):
                raise Unfeedable(f"{of}: a pointer into address space {ty.bits}")
            buffer = self.buffer(of)
            pointers.append({"offset": offset, "buffer": buffer})
            data[offset : offset + size] = bytes(size)
            return f"buffer {buffer}"
        pick = self.rng.randrange(8)
        if ty.kind == "int":
            value = pick & 1 if ty.bits == 1 else pick
            self.zeros += value == 0
            data[offset : offset + size] = value.to_bytes(size, "little")
            return str(value)
        value = SMALL_FLOATS[pick]
        self.zeros += value == 0.0
        if ty.name == "f16":
            data[offset : offset + 2] = struct.pack("<H", SMALL_HALVES[pick])
        elif ty.name == "bf16":
            data[offset : offset + 2] = struct.pack("<f", value)[2:]
        elif ty.name == "f32":
            data[offset : offset + 4] = struct.pack("<f", value)
        else:
            data[offset : offset + 8] = struct.pack("<d", value)
        return repr(value)

    def param(self, index, param):
        """The spec of parameter `index`."""
        of = f"param {index}"
        ty = param.byval if param.byval is not None else param.ty
        if param.sret is not None:
            raise Unfeedable(f"{of}: sret on a kernel")
        if param.byval is None and ty.kind in ("ptr", "int", "float"):
            data, pointers = bytearray(size_of(ty)), []
            shown = self.scalar(ty, data, 0, pointers, of)
            kind = {"ptr": "ptr", "int": "int", "float": "float"}[ty.kind]
            return {"index": index, "kind": kind, "llvm": param.type_text, "bytes": len(data), "value": shown,
                    "init": data.hex(), "pointers": pointers}
        size = size_of(ty)  # an aggregate or a vector, field by field
        align = param.align or align_of(ty)
        data = bytearray(self.rng.randrange(16) for _ in range(size))  # padding: random bytes 0-15
        pointers, fields = [], []
        for offset, leaf in leaves_of(ty):
            if leaf.kind == "int" and leaf.bits > 64:
                fields.append(f"{type_name(leaf)}@{offset}=bytes")
                continue
            shown = self.scalar(leaf, data, offset, pointers, f"{of} field @{offset}")
            fields.append(f"{type_name(leaf)}@{offset}={shown}")
        spec = {"index": index, "kind": "byval" if param.byval is not None else "aggregate",
                "llvm": param.byval_text or param.type_text, "bytes": size, "align": align,
                "layout": f"size {size} align {align}: " + ", ".join(fields[:64])
                + (f", ... ({len(fields)} fields)" if len(fields) > 64 else ""),
                "init": data.hex(), "pointers": pointers}
        if param.grid_constant:
            spec["grid_constant"] = True
        return spec


def kernel_spec(module_id, function, types, ptx_params, notes, shared_bytes, nonzero=False):
    """The launch spec of a kernel, or raises Unfeedable. `nonzero`: no
    integer or float of the arguments is 0 (drawn again, from the next
    seed, until none is: the probe's, where a field read wrong as 0 would
    otherwise go unseen behind x * 0)."""
    if function.variadic:
        raise Unfeedable("variadic")
    for attempt in range(1000):
        values = Values(zlib.crc32(f"{module_id}/{function.name}{f'/{attempt}' if attempt else ''}".encode()))
        params = [values.param(i, p) for i, p in enumerate(function.params)]
        if not nonzero or not values.zeros:
            break
    if ptx_params is None:
        raise Unfeedable("no .entry in llc's PTX")
    if [p["bytes"] for p in params] != ptx_params:
        raise Unfeedable(f"llc's .entry takes {ptx_params} bytes, the IR's layout says {[p['bytes'] for p in params]}")
    for param, size in zip(params, ptx_params):
        param["ptx_bytes"] = size
    return {"module": module_id, "kernel": function.name, "grid": GRID, "block": BLOCK,
            "shared_bytes": shared_bytes, "buffers": values.buffers, "params": params, "notes": notes}


# ----------------------------------------------------------------------------
# Stubs for the functions a module declares


class Stub:
    """LLVM IR text of one stub function."""

    def __init__(self, function, number):
        self.f = function
        self.lines = []
        self.count = 0
        self.number = number

    def value(self, text):
        self.count += 1
        name = f"%v{self.count}"
        self.lines.append(f"  {name} = {text}")
        return name

    def to_i64(self, ty, value):
        """An i64 of a scalar value (None for what is not folded)."""
        if ty.kind == "int":
            if ty.bits == 64:
                return value
            return self.value(f"{'zext' if ty.bits < 64 else 'trunc'} i{ty.bits} {value} to i64")
        if ty.kind == "float":
            bits = size_of(ty) * 8
            as_int = self.value(f"bitcast {type_text(ty)} {value} to i{bits}")
            return as_int if bits == 64 else self.value(f"zext i{bits} {as_int} to i64")
        if ty.kind == "ptr":
            return self.value(f"ptrtoint {type_text(ty)} {value} to i64")
        return None

    def fold(self, acc, value):
        times = self.value(f"mul i64 {acc}, 31")
        return self.value(f"add i64 {times}, {value}")

    def text(self):
        f = self.f
        params = []
        acc = str(self.number + 1)
        for i, p in enumerate(f.params):
            params.append(f"{p.type_text} {p.abi_attributes} %a{i}".replace("  ", " "))
        for i, p in enumerate(f.params):
            if p.sret is not None:
                continue
            if p.byval is not None:
                for offset, leaf in leaves_of(p.byval)[:8]:
                    if (leaf.kind == "int" and leaf.bits > 64) or leaf.kind == "ptr":
                        continue  # a pointer's value may be where a local copy lives: not the same on both sides
                    at = self.value(f"getelementptr i8, ptr %a{i}, i64 {offset}")
                    loaded = self.value(f"load {type_text(leaf)}, ptr {at}, align 1")
                    acc = self.fold(acc, self.to_i64(leaf, loaded))
            elif p.ty.kind == "ptr":
                byte = self.value(f"load i8, {p.type_text} %a{i}, align 1")
                acc = self.fold(acc, self.value(f"zext i8 {byte} to i64"))
            elif p.ty.kind in ("int", "float"):
                folded = self.to_i64(p.ty, f"%a{i}")
                if folded:
                    acc = self.fold(acc, folded)
        tid = self.value("call i32 @llvm.nvvm.read.ptx.sreg.tid.x()")
        ctaid = self.value("call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()")
        ntid = self.value("call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()")
        base = self.value(f"mul i32 {ctaid}, {ntid}")
        thread = self.value(f"add i32 {base}, {tid}")
        slot = self.value(f"and i32 {thread}, {LOG_SLOTS - 1}")
        slot64 = self.value(f"zext i32 {slot} to i64")
        at = self.value(f"getelementptr [{LOG_SLOTS} x i64], ptr addrspace(1) @__gpu_diff_log, i64 0, i64 {slot64}")
        old = self.value(f"load i64, ptr addrspace(1) {at}, align 8")
        acc = self.fold(self.fold(old, acc), str(self.number))
        self.lines.append(f"  store i64 {acc}, ptr addrspace(1) {at}, align 8")
        small = self.value(f"urem i64 {acc}, 8")
        for i, p in enumerate(f.params):
            if p.sret is not None:
                for offset, leaf in leaves_of(p.sret)[:64]:
                    where = self.value(f"getelementptr i8, ptr %a{i}, i64 {offset}")
                    self.lines.append(f"  store {type_text(leaf)} {self.small_of(leaf, small)}, ptr {where}, align 1")
        if f.ret_text == "void":
            self.lines.append("  ret void")
        elif f.ret.kind in ("struct", "array", "vec"):
            aggregate = "zeroinitializer"
            for path, leaf in paths_of(f.ret):
                if leaf.kind in ("int", "float"):
                    indices = ", ".join(str(x) for x in path)
                    aggregate = self.value(f"insertvalue {f.ret_text} {aggregate}, {type_text(leaf)} "
                                           f"{self.small_of(leaf, small)}, {indices}")
            self.lines.append(f"  ret {f.ret_text} {aggregate}")
        else:
            self.lines.append(f"  ret {f.ret_text} {self.small_of(f.ret, small)}")
        body = "\n".join(self.lines)
        name = f'@"{f.name}"' if not re.fullmatch(r"[-\w.$]+", f.name) else f"@{f.name}"
        return f"define {f.ret_attributes} {f.ret_text} {name}({', '.join(params)}) {{\n{body}\n}}\n"

    def small_of(self, ty, small):
        if ty.kind == "int":
            if ty.bits == 64:
                return small
            return self.value(f"{'trunc' if ty.bits < 64 else 'zext'} i64 {small} to i{ty.bits}")
        if ty.kind == "float":
            return self.value(f"uitofp i64 {small} to {type_text(ty)}")
        if ty.kind == "ptr":
            return "null"
        return "zeroinitializer"


def type_text(ty):
    if ty.kind == "int":
        return f"i{ty.bits}"
    if ty.kind == "float":
        return {"f16": "half", "bf16": "bfloat", "f32": "float", "f64": "double"}[ty.name]
    if ty.kind == "ptr":
        return "ptr" if ty.bits == 0 else f"ptr addrspace({ty.bits})"
    if ty.kind == "vec":
        return f"<{ty.count} x {type_text(ty.elements[0])}>"
    if ty.kind == "array":
        return f"[{ty.count} x {type_text(ty.elements[0])}]"
    inner = ", ".join(type_text(e) for e in ty.elements)
    return f"<{{ {inner} }}>" if ty.packed else f"{{ {inner} }}"


def paths_of(ty, path=()):
    """(insertvalue path, scalar Ty) of the leaves of a first-class
    aggregate (a vector is one leaf, left zero)."""
    if ty.kind == "struct":
        return [x for i, e in enumerate(ty.elements) for x in paths_of(e, path + (i,))]
    if ty.kind == "array":
        return [x for i in range(min(ty.count, 64)) for x in paths_of(ty.elements[0], path + (i,))]
    return [(path, ty)]


def stub_module(ll, declared, types):
    """LLVM IR defining a stub for each declared function, or None."""
    header = [line for line in ll.splitlines() if line.startswith(("target datalayout", "target triple"))]
    named = [line for line in ll.splitlines() if re.match(rf"^{NAME} = type ", line)]
    stubs = [Stub(function, number).text() for number, function in enumerate(declared)]
    return "\n".join(header + named + [
        f"@__gpu_diff_log = addrspace(1) global [{LOG_SLOTS} x i64] zeroinitializer, align 8",
        "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()",
    ] + stubs) + "\n"


FUNC_HEAD = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.func\s+(?:\([^)]*\)\s*)?([\w$]+)", re.M)


def ptx_definitions(ptx):
    """{name: text} of the functions a PTX text defines."""
    found = {}
    for match in FUNC_HEAD.finditer(ptx):
        brace = ptx.find("{", match.end())
        semicolon = ptx.find(";", match.end())
        if brace < 0 or (0 <= semicolon < brace):
            continue  # a declaration
        depth, i = 0, brace
        while True:
            if ptx[i] == "{":
                depth += 1
            elif ptx[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        found[match.group(1)] = ptx[match.start() : i + 1]
    return found


def link_stubs(ptx, stub_ptx, names):
    """`ptx` with each `.extern .func NAME(...);` of `names` replaced by the
    stub's definition and the stubs' global log added; (text, names not
    found)."""
    definitions = ptx_definitions(stub_ptx)
    missing = []
    for name in names:
        pattern = re.compile(r"^\.extern\s+\.func\b[^;{]*?(?<![\w$])" + re.escape(name) + r"\s*\([^;{]*?\)\s*;",
                             re.M | re.S)
        match = pattern.search(ptx)
        if not match:
            missing.append(name)
            continue
        ptx = ptx[: match.start()] + definitions[name] + ptx[match.end():]
    log = re.search(r"^.*\.global.*__gpu_diff_log.*$", stub_ptx, re.M).group(0)
    ptx = re.sub(r"^(\.address_size \d+\n)", lambda m: m.group(1) + "\n" + log + "\n", ptx, count=1, flags=re.M)
    return ptx, missing


# ----------------------------------------------------------------------------
# prepare


TOOL_TIMEOUT = 300  # seconds: a tool that takes longer skips its module


def set_tool_timeout(seconds):
    global TOOL_TIMEOUT
    TOOL_TIMEOUT = seconds


def run(command, what, **kwargs):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=TOOL_TIMEOUT, **kwargs)
    except subprocess.TimeoutExpired:
        raise ToolError(f"{what} took more than {TOOL_TIMEOUT} s ({' '.join(command)})")
    if result.returncode != 0:
        raise ToolError(f"{what} failed ({' '.join(command)}):\n{result.stderr[-3000:]}")
    return result.stdout


def prepare_module(source, opt, strip, args, out, work):
    """One .cu at one -O level (its attributes stripped or not): PTX files
    and kernel specs under out/<id>; returns the manifest entry (or a
    skipped-module entry)."""
    stem = re.sub(r"[^\w.-]", "_", os.path.splitext(os.path.basename(source))[0])
    module_id = f"{stem}.O{opt}{'.stripped' if strip else ''}"
    llvm = lambda tool: os.path.join(args.llvm_bin, tool)  # noqa: E731
    base = os.path.join(work, module_id)
    ll = base + ".ll"
    target = ["-mtriple=nvptx64-nvidia-cuda", f"-mcpu={args.chip}", f"-mattr=+ptx{args.ptx}"]
    entry = {"id": module_id, "source": os.path.relpath(os.path.abspath(source), REPO), "opt": f"O{opt}",
             "stripped": strip}
    try:
        optimize = [f"-O{opt}"] + (["-Xclang", "-disable-O0-optnone"] if opt == 0 else [])
        run([llvm("clang"), "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={args.chip}", "-nocudainc",
             "-nocudalib", "-Xclang", "-target-feature", "-Xclang", f"+ptx{args.ptx}", *optimize, "-S",
             "-emit-llvm", source, "-o", ll], "clang")
        if strip:
            with open(ll) as f:
                stripped = strip_attributes(f.read())
            with open(ll, "w") as f:
                f.write(stripped)
        run([llvm("llc"), *target, ll, "-o", base + ".llc.ptx"], "llc")
        run([args.ptxcc_opt, ll, f"--ptxcc-pipeline=chip={args.chip} ptx={args.ptx}", "--emit=ptx",
             "-o", base + ".ptxcc.ptx"], "ptxcc-opt")
    except ToolError as error:
        return {**entry, "why": str(error)}
    with open(ll) as f:
        text = f.read()
    texts = {}
    for flavour in ("llc", "ptxcc"):
        with open(f"{base}.{flavour}.ptx") as f:
            texts[flavour] = f.read()
    types = TypeParser(text)
    notes = []
    if re.search(r"\b(atomicrmw|cmpxchg)\b", text):
        notes.append("the module uses atomics: results that depend on the order are masked by llc's second run")

    # Stubs for the declared functions.
    declared, refused = [], []
    for line in re.findall(r"^declare .*$", text, re.M):
        name = re.search(r'@("[^"]*"|[-\w.$]+)\(', line).group(1).strip('"')
        if name.startswith("llvm.") or name in DRIVER_FUNCTIONS or name == "__nvvm_reflect":
            continue
        try:
            function = Function(line, types)
            if function.variadic or (function.ret_text != "void" and function.ret is None):
                raise Unfeedable("variadic or an unreadable return type")
            declared.append(function)
        except (Unfeedable, ValueError) as error:
            refused.append(f"{name}: {error}")
    if refused:
        return {**entry, "why": "declared functions the stubs cannot stand in for: " + "; ".join(refused)}
    if declared:
        stub_ll = base + ".stubs.ll"
        with open(stub_ll, "w") as f:
            f.write(stub_module(text, declared, types))
        try:
            run([llvm("llc"), *target, stub_ll, "-o", base + ".stubs.ptx"], "llc (stubs)")
        except ToolError as error:
            return {**entry, "why": str(error)}
        with open(base + ".stubs.ptx") as f:
            stub_ptx = f.read()
        names = [d.name for d in declared]
        for flavour in texts:
            texts[flavour], missing = link_stubs(texts[flavour], stub_ptx, names)
            unresolved = [n for n in missing if re.search(rf"(?<![\w$]){re.escape(n)}(?![\w$])", texts[flavour])]
            if unresolved:
                return {**entry, "why": f"{flavour}'s PTX uses {unresolved} but declares them in a shape the stubs "
                                        "do not recognise"}
        entry["stubs"] = names
        notes.append(f"stubs stand in for the declared {', '.join(names)}")
    if re.search(r"^\s*\.extern\s+\.global", texts["llc"], re.M):
        return {**entry, "why": "the module declares global variables it does not define"}
    shared_bytes = 4096 if re.search(r"^\s*\.extern\s+\.shared", texts["llc"], re.M) else 0

    directory = os.path.join(out, module_id)
    shutil.rmtree(directory, ignore_errors=True)  # --append: this module prepared again
    os.makedirs(os.path.join(directory, "kernels"))
    entry["ptx"] = {}
    for flavour, ptx in texts.items():
        path = os.path.join(directory, f"{flavour}.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        entry["ptx"][flavour] = os.path.relpath(path, out)
    entry["ptxas"], cubins = assemble(texts, args, directory)
    if args.ptxas:
        entry["cubin"] = {flavour: os.path.relpath(path, out) for flavour, path in cubins.items()}
    llc_entries, ptxcc_entries = runner.entries(texts["llc"]), runner.entries(texts["ptxcc"])
    entry["kernels"], entry["skipped"] = [], []
    defines = [line for line in re.findall(r"^define .*$", text, re.M) if " ptx_kernel " in line]
    for number, line in enumerate(defines):
        name = re.search(r'@("[^"]*"|[-\w.$]+)\(', line).group(1).strip('"')
        try:
            function = Function(line, types)
            spec = kernel_spec(module_id, function, types, llc_entries.get(name), notes, shared_bytes,
                               nonzero=is_probe(source))
        except (Unfeedable, ValueError) as error:
            entry["skipped"].append({"kernel": name, "why": str(error)})
            continue
        if ptxcc_entries.get(name) != llc_entries.get(name):
            spec["notes"] = notes + [f"ptxcc's .entry takes {ptxcc_entries.get(name)} bytes, llc's "
                                     f"{llc_entries.get(name)}: the runner will say abi mismatch"]
        expected = probe_expected(source, spec)
        if expected:
            spec["expected"] = expected
        path = os.path.join(directory, "kernels", f"{number:02d}-{name[:80]}.json")
        with open(path, "w") as f:
            f.write(spec_json(spec))
        entry["kernels"].append(os.path.relpath(path, out))
    return entry


def f32(value):
    """`value` rounded to a float's precision, as a float."""
    return struct.unpack("<f", struct.pack("<f", value))[0]


def probe_move_param(kernel, init, t):
    """What thread `t` of a kernel of test/e2e/Inputs/gpu-move-param.cu
    writes to out[t] ("<f" or "<d", value), its by-value struct's bytes
    `init`; None for another kernel. The inputs are small exact values, so
    every order and contraction of the arithmetic gives these bits; where
    a result is not exact (vec3_call_ret's sqrt and divisions, correctly
    rounded on the GPU: sqrt.rn, div.rn), each operation is done in double
    and rounded to float, which gives the correctly rounded float result
    for +, -, *, / and sqrt of floats (a double has more than 2 * 24 + 2
    bits)."""
    if kernel == "_Z4vec34Vec3Pf":
        x, _, z = struct.unpack_from("<3f", init)
        return "<f", f32(x + 2.0 * t + 4.0 * z)
    if kernel in ("_Z5mat165Mat16Pf", "_Z5dyn165Mat16Pf"):
        m = list(struct.unpack_from("<16f", init))
        if kernel == "_Z5mat165Mat16Pf":
            m[5] = float(t)
        else:
            m[t & 15] = -float(t)
        return "<f", f32(sum((i + 1) * v for i, v in enumerate(m)))
    if kernel == "_Z5mixed5MixedPd":
        (a,) = struct.unpack_from("<i", init)
        return "<d", a + 3.0 * (0.5 * t)
    if kernel == "_Z12visible_vec34Vec3Pf":  # bump(v, 1.0f)
        x, y, z = struct.unpack_from("<3f", init)
        return "<f", f32(f32(f32(x + 1.0) * f32(y * 1.0)) + z)
    if kernel == "_Z13mat_then_call5Mat44Pf":  # determinant(scale(m, s))
        m = struct.unpack_from("<16f", init)
        s = f32(0.5 * (t & 7))
        return "<f", f32(f32(f32(m[0] * s) * f32(m[5] * s)) - f32(m[1] * m[4]))
    if kernel == "_Z14vec3_then_call4Vec3Pf":  # as vec3
        return probe_move_param("_Z4vec34Vec3Pf", init, t)
    if kernel == "_Z13vec3_call_ret4Vec3Pf":  # length(v) + normalize(v) summed
        x, y, z = struct.unpack_from("<3f", init)
        length = f32(math.sqrt(f32(f32(f32(x * x) + f32(y * y)) + f32(z * z))))
        if length == 0.0:
            return None  # 0 / 0: a NaN whose bits the GPU chooses
        n = [f32(v / length) for v in (x, y, z)]
        return "<f", f32(f32(f32(length + n[0]) + n[1]) + n[2])
    return None


def is_probe(source):
    """Whether `source` is test/e2e/Inputs/gpu-move-param.cu."""
    return os.path.basename(source) == "gpu-move-param.cu"


def probe_expected(source, spec):
    """The bytes a kernel must leave, where they are known without running
    it (the probe's kernels): [{buffer, offset, hex}], or None. The runner
    tells which flavours left them."""
    if not is_probe(source) or len(spec["params"]) != 2:
        return None
    init = bytes.fromhex(spec["params"][0]["init"])
    threads = spec["grid"][0] * spec["block"][0]
    values = [probe_move_param(spec["kernel"], init, t) for t in range(threads)]
    if None in values:
        return None
    data = b"".join(struct.pack(form, value) for form, value in values)
    return [{"buffer": spec["params"][1]["pointers"][0]["buffer"], "offset": 0, "hex": data.hex(),
             "what": "out[t] for every thread t, as test/e2e/Inputs/gpu-move-param.cu says"}]


def spec_json(spec):
    """A spec as JSON, one parameter or buffer a line (FileCheck reads it)."""
    head = {k: v for k, v in spec.items() if k not in ("params", "buffers")}
    lines = ["{"] + [f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    lines.append(' "buffers": [')
    lines += [f"  {json.dumps(b)}{',' if i + 1 < len(spec['buffers']) else ''}" for i, b in enumerate(spec["buffers"])]
    lines.append(" ],")
    lines.append(' "params": [')
    lines += [f"  {json.dumps(p)}{',' if i + 1 < len(spec['params']) else ''}" for i, p in enumerate(spec["params"])]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def find_ptxas(no_ptxas):
    """NVIDIA's ptxas (scripts/nvidia_tools.py) and its version
    ("13.5"), or (None, None)."""
    if no_ptxas:
        return None, None
    try:
        from nvidia_tools import find_tools
        ptxas = find_tools().ptxas
    except Exception:  # noqa: BLE001 (no tools: nothing to assemble)
        ptxas = None
    if not ptxas:
        return None, None
    result = subprocess.run([ptxas, "--version"], capture_output=True, text=True)
    match = re.search(r"release (\d+\.\d+)", result.stdout)
    return ptxas, match.group(1) if match else "?"


def assemble(texts, args, directory):
    """Each flavour's PTX (in `directory`) assembled by ptxas for the chip
    into `directory`/FLAVOUR.cubin: ({flavour: "ok" | ptxas's complaint},
    {flavour: cubin path}); a PTX ptxas refuses has no cubin, one it warns
    about has one. ({}, {}) without ptxas."""
    if not args.ptxas:
        return {}, {}
    verdicts, cubins = {}, {}
    for flavour in texts:
        ptx = os.path.join(directory, f"{flavour}.ptx")
        cubin = os.path.join(directory, f"{flavour}.cubin")
        result = subprocess.run([args.ptxas, f"-arch={args.chip}", ptx, "-o", cubin], capture_output=True, text=True)
        problems = (result.stdout + result.stderr).strip()
        verdicts[flavour] = "ok" if result.returncode == 0 and not problems else problems[-2000:]
        if result.returncode == 0 and os.path.exists(cubin):
            cubins[flavour] = cubin
        elif os.path.exists(cubin):
            os.remove(cubin)
    return verdicts, cubins


def prepare(args):
    out = args.out
    manifest_path = os.path.join(out, "manifest.json")
    previous = {"modules": [], "skipped_modules": []}
    if args.append and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            previous = json.load(f)
        if (previous.get("format"), previous.get("chip"), previous.get("ptx")) != (runner.FORMAT, args.chip, args.ptx):
            raise SystemExit(f"gpu_diff: {out} was prepared for another format, chip or PTX version")
    elif os.path.exists(manifest_path):
        shutil.rmtree(out)  # a bundle of ours: start again
    elif os.path.exists(out) and os.listdir(out):
        raise SystemExit(f"gpu_diff: {out} is not empty and holds no bundle")
    os.makedirs(out, exist_ok=True)
    args.ptxas, ptxas_version = find_ptxas(args.no_ptxas)
    if args.append and None not in (previous.get("ptxas_version"), ptxas_version) \
            and previous["ptxas_version"] != ptxas_version:
        raise SystemExit(f"gpu_diff: {out} was prepared with ptxas {previous.get('ptxas_version')}, "
                         f"this is {ptxas_version}")
    work = tempfile.mkdtemp(prefix="gpu-diff-prepare.")
    try:
        jobs = [(source, opt, strip) for source in args.files for opt in args.opt
                for strip in ((False, True) if args.strip_attributes else (False,))]
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            entries = list(pool.map(lambda job: prepare_module(*job, args, out, work), jobs))
    finally:
        if args.keep:
            print(f"gpu_diff: intermediate files in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    new = {e["id"] for e in entries}
    kept = [m for m in previous["modules"] + previous["skipped_modules"] if m["id"] not in new]
    modules = [e for e in kept + entries if "why" not in e]
    skipped_modules = [e for e in kept + entries if "why" in e]
    manifest = {"format": runner.FORMAT, "chip": args.chip, "ptx": args.ptx, "ptxas_version": ptxas_version,
                "grid": GRID, "block": BLOCK, "buffer_bytes": BUFFER_BYTES, "modules": modules,
                "skipped_modules": skipped_modules}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    shutil.copy(os.path.join(HERE, "gpu_diff_runner.py"), os.path.join(out, "gpu_diff_runner.py"))
    kernels = sum(len(m["kernels"]) for m in modules)
    skipped = sum(len(m["skipped"]) for m in modules)
    for module in skipped_modules:
        print(f"gpu_diff: skipped module {module['id']}: {runner.first_line(module['why'])}")
    for module in modules:
        for entry in module["skipped"]:
            print(f"gpu_diff: skipped {module['id']} {entry['kernel']}: {entry['why']}")
        for flavour, verdict in module.get("ptxas", {}).items():
            if verdict != "ok":
                print(f"gpu_diff: ptxas on {module['id']} ({flavour}): {runner.first_line(verdict)}")
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    cubins = sum(len(m.get("cubin", {})) for m in modules)
    print(f"gpu_diff: {len(modules)} modules, {kernels} kernels, {skipped} kernels skipped, "
          f"{len(skipped_modules)} modules skipped; {size // 1024} KiB in {out}")
    print(f"gpu_diff: {cubins} cubins (ptxas {ptxas_version}, {args.chip})" if ptxas_version
          else "gpu_diff: no cubins (no ptxas: the runner runs the PTX files through the driver's JIT only)")
    return 0


# ----------------------------------------------------------------------------
# check


def check(args):
    path = os.path.join(args.results, "gpu-diff-results.json")
    if not os.path.exists(path):
        raise SystemExit(f"gpu_diff: no {path}")
    with open(path) as f:
        data = json.load(f)
    if "skipped" in data and not data.get("results") and isinstance(data["skipped"], str):
        print(f"no GPU: skipped ({data['skipped']})")
        return 2
    manifest = {"modules": [], "skipped_modules": []}
    skipped = data.get("skipped", [])
    manifest["skipped_modules"] = [{"id": s["module"], "why": s["why"]} for s in skipped if s["kernel"] == "(module)"]
    by_module = {}
    for s in skipped:
        if s["kernel"] != "(module)":
            by_module.setdefault(s["module"], []).append(s)
    manifest["modules"] = [{"id": m, "skipped": s} for m, s in by_module.items()]
    manifest["ptxas_version"] = data.get("manifest", {}).get("ptxas_version")
    results = data["results"]
    print(runner.summarize(results, manifest, data.get("device")))
    for result in results:
        if result["verdict"] in runner.FAILING or result.get("assembler_split"):
            print(f"\n== {result['verdict']}: {result['module']} {result['kernel']} ({result.get('source', '')})")
            print(result["detail"])
            if result.get("cubin_detail") and not result["detail"].startswith("cubins"):
                print(f"cubins: {result['cubin_verdict']}: {runner.first_line(result['cubin_detail'])}")
            if "flavours" in result:
                print(f"flavours: {result['flavours']}; reference: {result['reference']}")
            for run, outcome in result.get("runs", {}).items():
                print(f"  {run}: {outcome['status']} {runner.first_line(outcome.get('detail'))}")
    return runner.exit_status(results)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("prepare", help="make a bundle from .cu files")
    p.add_argument("--out", required=True)
    p.add_argument("files", nargs="+")
    default_opt = os.path.join(REPO, "target", "release", "ptxcc-opt")
    if not os.path.exists(default_opt):
        default_opt = os.path.join(REPO, "target", "debug", "ptxcc-opt")
    p.add_argument("--ptxcc-opt", default=default_opt)
    p.add_argument("--llvm-bin", default=os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin"))
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--ptx", type=int, default=80)
    p.add_argument("--opt", type=int, action="append", help="clang -O levels (default 2 and 0)")
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("--strip-attributes", action="store_true",
                   help="also each module with the attributes clang infers stripped (as diffexec.py does)")
    p.add_argument("--no-ptxas", action="store_true",
                   help="do not assemble the PTX here (no cubins: the runner runs the PTX files only)")
    p.add_argument("--keep", action="store_true", help="keep the intermediate files (printed)")
    p.add_argument("--tool-timeout", type=int, default=TOOL_TIMEOUT,
                   help="seconds clang, llc or ptxcc-opt may take on one module before it is skipped")
    p.add_argument("--append", action="store_true",
                   help="add to the bundle in --out (a module prepared again replaces its old self)")
    c = commands.add_parser("check", help="summarise a runner's results")
    c.add_argument("results")
    args = parser.parse_args()
    if args.command == "prepare":
        set_tool_timeout(args.tool_timeout)
        args.opt = args.opt or [2, 0]
        return prepare(args)
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
