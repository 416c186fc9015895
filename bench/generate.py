#!/usr/bin/env python3
"""Generate a large LLVM-dialect MLIR module for the ptxcc compile-time benchmark.

bench/kernels.cu is compiled to LLVM IR with clang (CUDA device side, sm_90,
-O2, no CUDA headers), imported with `mlir-translate --import-llvm`, and its
function definitions are replicated with renamed symbols until the module
holds N `llvm.func` definitions:

  * every symbol the template defines (functions and globals) gets the suffix
    `_<copy index>` in copy k, and so does every reference to it (`@foo` in
    calls, `llvm.mlir.addressof @foo`, ...);
  * external declarations (intrinsics), attribute aliases, module attributes
    and module flags appear once;
  * `@llvm.used` / `@llvm.compiler.used` are rebuilt once, listing the globals
    of every copy;
  * the last copy may be partial: it takes a set of definitions closed under
    calls (a kernel comes with the device functions it calls) so that the
    total is exactly N where possible; otherwise the last copy is whole and the
    total is the nearest possible count above N (reported on stderr).

Usage: bench/generate.py --functions N -o out.mlir [--cuda bench/kernels.cu]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
CLANG_FLAGS = [
    "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
    "-nocudainc", "-nocudalib",
    "-Xclang", "-target-feature", "-Xclang", "+ptx80",
    "-O2", "-S", "-emit-llvm",
]

# A symbol reference: @"quoted" or @bare-id (MLIR: [A-Za-z_][A-Za-z0-9_$.]*).
# The bare form is matched greedily, so it always ends at a non-identifier
# character: @foo never matches inside @foo.bar or @foo_1.
SYM_RE = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][A-Za-z0-9_$.]*))')
# The symbol an op defines, as the first symbol on its first line.
DEF_RE = re.compile(r'^  (llvm\.func|llvm\.mlir\.global)\b[^@]*' + SYM_RE.pattern)
USED_GLOBALS = {"llvm.used", "llvm.compiler.used"}


class GenerateError(Exception):
    pass


def run_tool(cmd, what):
    exe = cmd[0]
    if not (os.path.isfile(exe) and os.access(exe, os.X_OK)) and shutil.which(exe) is None:
        raise GenerateError(f"{what}: tool not found: {exe}")
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        tail = "\n".join(p.stderr.strip().splitlines()[-20:])
        raise GenerateError(f"{what} failed (exit {p.returncode}): {' '.join(cmd)}\n{tail}")
    return p


def import_template(cuda, workdir, opt="-O2"):
    """clang + mlir-translate: the template module as MLIR text."""
    stem = os.path.splitext(os.path.basename(cuda))[0]
    ll = os.path.join(workdir, f"{stem}.ll")
    mlir = os.path.join(workdir, f"{stem}.mlir")
    flags = [f for f in CLANG_FLAGS if f != "-O2"] + [opt]
    if opt == "-O0":
        # As the -O0 e2e tests compile: no optnone, so that the IR is
        # clang's unoptimized output, not a function LLVM must leave alone.
        flags += ["-Xclang", "-disable-O0-optnone"]
    run_tool([os.path.join(LLVM_BIN, "clang"), *flags, cuda, "-o", ll], "clang")
    run_tool([os.path.join(LLVM_BIN, "mlir-translate"), "--import-llvm", ll, "-o", mlir],
             "mlir-translate --import-llvm")
    with open(mlir) as f:
        return f.read()


class TopOp:
    def __init__(self, lines):
        self.lines = lines
        first = lines[0]
        m = DEF_RE.match(first)
        self.kind = None
        self.sym = None
        if m:
            self.kind = m.group(1)
            self.sym = m.group(2) if m.group(2) is not None else m.group(3)
            self.quoted = m.group(2) is not None
        self.has_body = len(lines) > 1 or first.rstrip().endswith("{")

    @property
    def text(self):
        return "".join(self.lines)


def split_module(text):
    """Preamble (aliases), module header line, top-level ops, trailer."""
    lines = text.splitlines(keepends=True)
    start = None
    for i, l in enumerate(lines):
        if re.match(r"^module\b.*\{\s*$", l):
            start = i
            break
    if start is None:
        raise GenerateError("template: no 'module ... {' line in mlir-translate's output")
    end = None
    for i in range(len(lines) - 1, start, -1):
        if lines[i].rstrip() == "}":
            end = i
            break
    if end is None:
        raise GenerateError("template: no closing '}' of the module")
    ops, cur = [], None
    for l in lines[start + 1:end]:
        # A top-level op starts at indent 2; block labels (^bb) and region
        # closers ('  }') at indent 2 belong to the op before them.
        if re.match(r"^  [^\s}^]", l):
            cur = [l]
            ops.append(cur)
        else:
            if cur is None:
                if l.strip():
                    raise GenerateError(f"template: unexpected line before the first op: {l!r}")
                continue
            cur.append(l)
    return "".join(lines[:start]), lines[start], [TopOp(o) for o in ops], "".join(lines[end + 1:])


def rename(text, defined, k):
    def sub(m):
        name = m.group(1) if m.group(1) is not None else m.group(2)
        if name not in defined:
            return m.group(0)
        if m.group(1) is not None:
            return f'@"{name}_{k}"'
        return f"@{name}_{k}"
    return SYM_RE.sub(sub, text)


def refs(text):
    return {m.group(1) if m.group(1) is not None else m.group(2) for m in SYM_RE.finditer(text)}


def build_used(op, copies, defined):
    """Rebuild @llvm.used / @llvm.compiler.used for all copies."""
    entries = re.findall(r"llvm\.mlir\.addressof (@\S+) : (!llvm\.ptr(?:<\d+>)?)", op.text)
    if not entries:
        return op.text
    header = re.match(r"^(.*?: )!llvm\.array<\d+ x ptr> \{\s*$", op.lines[0])
    if not header:
        raise GenerateError(f"template: unexpected form of {op.sym}: {op.lines[0]!r}")
    items = []
    for k in copies:
        for sym, ty in entries:
            items.append((rename(sym, defined, k), ty))
    n = len(items)
    out = [f"{header.group(1)}!llvm.array<{n} x ptr> {{\n"]
    v = 0
    ptrs = []
    for sym, ty in items:
        out.append(f"    %{v} = llvm.mlir.addressof {sym} : {ty}\n")
        if ty != "!llvm.ptr":
            out.append(f"    %{v + 1} = llvm.addrspacecast %{v} : {ty} to !llvm.ptr\n")
            ptrs.append(v + 1)
            v += 2
        else:
            ptrs.append(v)
            v += 1
    out.append(f"    %{v} = llvm.mlir.undef : !llvm.array<{n} x ptr>\n")
    acc = v
    v += 1
    for i, p in enumerate(ptrs):
        out.append(f"    %{v} = llvm.insertvalue %{p}, %{acc}[{i}] : !llvm.array<{n} x ptr>\n")
        acc = v
        v += 1
    out.append(f"    llvm.return %{acc} : !llvm.array<{n} x ptr>\n")
    out.append("  }\n")
    return "".join(out)


def template_stats(defs, decls):
    """The function mix of one template copy."""
    s = {"definitions": len(defs), "kernels": 0, "device_functions": 0,
         "functions_with_byval": 0, "byval_params": 0,
         "functions_with_alloca": 0, "allocas": 0,
         "functions_with_calls": 0, "calls_to_definitions": 0, "calls_to_declarations": 0,
         "struct_or_array_results": 0, "declarations": len(decls)}
    def_names = {d.sym for d in defs}
    for d in defs:
        t = d.text
        head = d.lines[0]
        if "ptx_kernelcc" in head:
            s["kernels"] += 1
        else:
            s["device_functions"] += 1
        nb = head.count("llvm.byval")
        s["byval_params"] += nb
        s["functions_with_byval"] += nb > 0
        na = t.count("llvm.alloca ")
        s["allocas"] += na
        s["functions_with_alloca"] += na > 0
        calls = re.findall(r"llvm\.call (?:\w+ )*" + SYM_RE.pattern, t)
        ncall_def = sum(1 for q, b in calls if (q or b) in def_names)
        s["calls_to_definitions"] += ncall_def
        s["calls_to_declarations"] += len(calls) - ncall_def
        s["functions_with_calls"] += ncall_def > 0
        if re.search(r"\) -> !llvm\.(struct|array)", head):
            s["struct_or_array_results"] += 1
    return s


ALIAS_DEF_RE = re.compile(r"^([#!])([A-Za-z_][A-Za-z0-9_$.]*)\s*=", re.M)
COMDAT_RE = re.compile(r" comdat\(@[^)]*\)")
STRUCT_NAME_RE = re.compile(r'(llvm\.struct<)"((?:[^"\\]|\\.)*)"')


def rename_template(preamble, ops, j):
    """Template j's own names made distinct from the other templates':
    the symbols it defines, its attribute and type aliases and its
    identified struct names get the suffix `_f<j>` (two CUDA files may both
    define `kernel`, `#tbaa_tag1` or `struct.Vec3`, each its own way).
    External declarations keep their names: they are shared."""
    defined = {o.sym for o in ops if o.kind == "llvm.func" and o.has_body}
    defined |= {o.sym for o in ops if o.kind == "llvm.mlir.global" and o.sym not in USED_GLOBALS}
    aliases = {m.group(1) + m.group(2) for m in ALIAS_DEF_RE.finditer(preamble)}
    alias_re = re.compile(r"([#!][A-Za-z_][A-Za-z0-9_$.]*)")

    def fix(text):
        text = rename(text, defined, f"f{j}")
        text = alias_re.sub(lambda m: m.group(1) + f"_f{j}" if m.group(1) in aliases else m.group(1), text)
        return STRUCT_NAME_RE.sub(lambda m: f'{m.group(1)}"{m.group(2)}_f{j}"', text)

    return fix(preamble), [TopOp(fix(o.text).splitlines(keepends=True)) for o in ops]


def load_templates(cudas, opt, workdir):
    """The templates, compiled and imported, merged into one: (preamble,
    module header, top-level ops, trailer). With several templates each is
    renamed apart first ([rename_template]); the module header and trailer
    are the first one's, and external declarations and other top-level ops
    (module flags) that several templates hold appear once."""
    preambles, ops, header, trailer = [], [], None, ""
    seen = {}
    for j, cuda in enumerate(cudas):
        if not os.path.isfile(cuda):
            raise GenerateError(f"no such file: {cuda}")
        preamble, head, template_ops, tail = split_module(import_template(cuda, workdir, opt))
        # Comdats (templates at -O0) name each copy's functions: dropped, as
        # the copies are renamed apart anyway.
        template_ops = [TopOp(COMDAT_RE.sub("", o.text).splitlines(keepends=True)) for o in template_ops
                        if not o.text.startswith("  llvm.comdat ")]
        if len(cudas) > 1:
            preamble, template_ops = rename_template(preamble, template_ops, j)
        if header is None:
            header, trailer = head, tail
        preambles.append(preamble)
        for o in template_ops:
            shared = (o.kind == "llvm.func" and not o.has_body) or o.kind is None
            if shared:
                key = o.sym if o.kind else o.text
                if key in seen:
                    if seen[key] != o.text:
                        raise GenerateError(f"templates declare @{o.sym} differently")
                    continue
                seen[key] = o.text
            ops.append(o)
    used = [o for o in ops if o.kind == "llvm.mlir.global" and o.sym in USED_GLOBALS]
    ops = [o for o in ops if o not in used]
    for sym in USED_GLOBALS:
        # One @llvm.used (or compiler.used) listing every template's entries.
        mine = [o for o in used if o.sym == sym]
        if mine:
            ops.append(TopOp(mine[0].lines + [line for o in mine[1:] for line in o.lines]))
    return "".join(preambles), header, ops, trailer


def generate(n, out, cuda=None, workdir=None, log=sys.stderr, opt="-O2"):
    """Write the module; return a dict describing it. `cuda` is one CUDA
    file or a list of them (the templates, merged), `opt` clang's
    optimization level."""
    if n < 1:
        raise GenerateError("--functions must be at least 1")
    cudas = [cuda] if isinstance(cuda, str) else list(cuda or [os.path.join(HERE, "kernels.cu")])
    own = workdir is None
    workdir = workdir or tempfile.mkdtemp(prefix="ptxcc-bench-")
    try:
        preamble, header, ops, trailer = load_templates(cudas, opt, workdir)
    finally:
        if own:
            shutil.rmtree(workdir, ignore_errors=True)

    defs = [o for o in ops if o.kind == "llvm.func" and o.has_body]
    decls = [o for o in ops if o.kind == "llvm.func" and not o.has_body]
    globs = [o for o in ops if o.kind == "llvm.mlir.global" and o.sym not in USED_GLOBALS]
    used = [o for o in ops if o.kind == "llvm.mlir.global" and o.sym in USED_GLOBALS]
    others = [o for o in ops if o.kind is None]
    if not defs:
        raise GenerateError("template: no function definitions")
    defined = {o.sym for o in defs} | {o.sym for o in globs}

    # Calls (any reference) between definitions, for partial copies.
    callees = {d.sym: refs("".join(d.lines[1:])) & {x.sym for x in defs} for d in defs}

    def closure(sym):
        seen, todo = set(), [sym]
        while todo:
            s = todo.pop()
            if s not in seen:
                seen.add(s)
                todo.extend(callees[s] - seen)
        return seen

    per = len(defs)
    full, rest = divmod(n, per)
    partial = set()
    if rest:
        for d in defs:                         # greedy, template order
            c = closure(d.sym)
            if len(partial | c) <= rest:
                partial |= c
            if len(partial) == rest:
                break
        if len(partial) != rest:               # cannot hit N exactly: a whole copy
            full, partial = full + 1, set()
    copies = list(range(full + (1 if partial else 0)))
    total = full * per + len(partial)

    parts = [preamble, header]
    for k in copies:
        for g in globs:
            parts.append(rename(g.text, defined, k))
    for u in used:
        parts.append(build_used(u, copies, defined))
    for o in others:
        parts.append(o.text)
    for d in decls:
        parts.append(d.text)
    for k in copies:
        for d in defs:
            if k < full or d.sym in partial:
                parts.append(rename(d.text, defined, k))
    parts.append("}\n")
    parts.append(trailer)
    body = "".join(parts)
    with open(out, "w") as f:
        f.write(body)

    info = {
        "requested": n, "functions": total, "copies": len(copies), "per_copy": per,
        "partial_copy_functions": len(partial), "lines": body.count("\n"),
        "bytes": len(body), "template": template_stats(defs, decls),
    }
    if total != n:
        print(f"generate: {n} functions requested; the nearest possible is {total} "
              f"({len(copies)} copies of {per})", file=log)
    return info


REPO = os.path.dirname(HERE)
E2E = os.path.join(REPO, "test", "e2e")


def e2e_files(*names):
    """test/e2e's CUDA files: the named ones, or all of them."""
    if names:
        return [os.path.join(E2E, f"{name}.cu") for name in names]
    return sorted(os.path.join(E2E, f) for f in os.listdir(E2E) if f.endswith(".cu"))


# The module shapes the benchmark measures: name -> (templates, clang's
# optimization level, what the shape stands for). Each is replicated to the
# requested size as one template.
SHAPES = {
    "bench": (lambda: [os.path.join(HERE, "kernels.cu")], "-O2",
              "bench/kernels.cu: byval structs read, escaping and written, small struct arguments "
              "to static device functions, struct results, local arrays"),
    "e2e": (e2e_files, "-O2",
            "every CUDA file of test/e2e at -O2: kernels passing structs by value, externally visible "
            "device functions calling each other, local arrays, writes into byval structs, atomics"),
    "external": (lambda: e2e_files("device-calls-external", "issue29-external-structs", "struct-args-escape"),
                 "-O2",
                 "externally visible device functions taking and returning structs, called by kernels "
                 "(each gets an internal clone and a wrapper)"),
    "e2e-O0": (e2e_files, "-O0",
               "every CUDA file of test/e2e at -O0: an alloca per variable, loads and stores everywhere"),
}


def shape_templates(shape):
    """(templates, optimization level) of a shape in SHAPES."""
    if shape not in SHAPES:
        raise GenerateError(f"unknown shape {shape!r} (known: {', '.join(SHAPES)})")
    files, opt, _ = SHAPES[shape]
    return files(), opt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--functions", "-n", type=int, required=True,
                    help="number of llvm.func definitions in the module")
    ap.add_argument("-o", "--output", required=True, help="output .mlir file")
    ap.add_argument("--shape", default="bench",
                    help=f"which templates to replicate: {', '.join(SHAPES)} (default: bench)")
    ap.add_argument("--cuda", action="append",
                    help="CUDA template (repeat for several, merged); overrides --shape's files")
    ap.add_argument("-O", dest="opt", choices=["0", "1", "2", "3"],
                    help="clang's optimization level for --cuda (default: the shape's)")
    ap.add_argument("--stats", action="store_true",
                    help="print the template's function mix on stderr")
    ap.add_argument("--info", metavar="FILE",
                    help="write what was generated (counts, the template's mix) to FILE as JSON")
    a = ap.parse_args()
    try:
        cudas, opt = shape_templates(a.shape)
        if a.cuda:
            cudas = a.cuda
        if a.opt:
            opt = f"-O{a.opt}"
        info = generate(a.functions, a.output, cudas, opt=opt)
    except GenerateError as e:
        sys.exit(f"generate.py: error: {e}")
    print(f"generate: wrote {a.output}: {info['functions']} functions "
          f"({info['copies']} copies of {info['per_copy']}"
          + (f", the last one partial with {info['partial_copy_functions']}" if info["partial_copy_functions"] else "")
          + f"), {info['lines']} lines", file=sys.stderr)
    if a.info:
        with open(a.info, "w") as f:
            json.dump(info, f)
    if a.stats:
        for k, v in info["template"].items():
            print(f"  per copy: {k:24} {v}", file=sys.stderr)


if __name__ == "__main__":
    main()
