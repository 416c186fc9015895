#!/usr/bin/env python3
"""Assemble PTX with NVIDIA's ptxas; fail on any error or warning.

Usage:
    scripts/ptxas_check.py [FILE.ptx]          filter: PTX in (FILE or stdin), the same PTX out
    scripts/ptxas_check.py --llc LLC [ARG...]  run llc, then check what it wrote

The PTX is assembled for its own `.target` twice: whole-program (as nvcc
without -rdc does; skipped for a module that declares `.extern` symbols,
which no single module can resolve) and with `-c` (relocatable). Any ptxas
error or warning is printed on stderr with the mode that got it, and the
exit status is 1; otherwise the PTX passes through untouched (in the filter
form) and the status is 0. In the --llc form llc's own output, messages and
failure pass through unchanged, and only PTX that llc wrote is checked
(stdout, or the file after `-o`; not `-o /dev/null`, not `-filetype=obj`).

A chip this ptxas does not assemble (before sm_75 for CUDA 13) is not
checked. $PTXAS_CHECK_ALLOW, a Python regex, names messages a test expects
because llc's own PTX of the same input gets them too (an LLVM bug ptxcc
cannot mend); such a test proves that with its own RUN line.

The lit suite runs every `llc` through the --llc form (test/lit.cfg.py puts
a wrapper first on PATH) and pipes ptxcc-opt's `--emit=ptx` and the GPU
flow's PTX through the filter, so every PTX a test makes is assembled. With
no ptxas (scripts/nvidia_tools.py) nothing is checked and the PTX passes
through; the lit tests that need ptxas say `REQUIRES: ptxas`.
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvidia_tools import find_tools  # noqa: E402
from sass import UNKNOWN_CHIP, assemble, whole_program  # noqa: E402

VERSION = re.compile(r"^\s*\.version\s", re.M)



def problems(ptx, tools, allow=None):
    """Lines describing every ptxas error or warning on `ptx`, both modes,
    but those whose message `allow` (a regex) matches. None for a chip
    this ptxas does not assemble."""
    found = []
    modes = [("-c", False)]
    if whole_program(ptx):
        modes.insert(0, ("whole-program", True))
    for mode, whole in modes:
        result = assemble(ptx, tools, whole, sass=False)
        if UNKNOWN_CHIP in result.log:
            return None
        for kind, message in result.diagnostics:
            if allow and (re.search(allow, message) or message == "Ptx assembly aborted due to errors"):
                continue
            found.append(f"ptxas ({mode}) {kind}: {message}")
        if not result.ok and not result.diagnostics:
            found.append(f"ptxas ({mode}) failed with status {result.returncode}:\n{result.log.strip()}")
    return found


def modules(text):
    """The PTX modules in `text`, split before each `.version` (the GPU
    flow's filter prints several in a row)."""
    starts = [match.start() for match in VERSION.finditer(text)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def check(ptx, tools, what):
    """Prints the problems of `ptx` on stderr; returns the exit status."""
    if tools.ptxas is None:
        return 0
    allow = os.environ.get("PTXAS_CHECK_ALLOW")
    found = [problem for module in modules(ptx) for problem in problems(module, tools, allow) or []]
    for line in found:
        print(f"ptxas_check: {what}: {line}", file=sys.stderr)
    return 1 if found else 0


def output_of(args):
    """Where llc writes with these arguments: a path, "-" (stdout) or None
    (no PTX to check)."""
    if any(arg in ("-filetype=obj", "--filetype=obj", "-filetype=null", "--filetype=null") for arg in args):
        return None
    output = "-"
    for i, arg in enumerate(args):
        if arg == "-o" and i + 1 < len(args):
            output = args[i + 1]
        elif arg.startswith(("-o=", "--o=")):
            output = arg.split("=", 1)[1]
    if output == "-" and any(arg in ("--version", "-version", "--help", "-help") for arg in args):
        return None
    return None if output == "/dev/null" else output


def run_llc(llc, args, tools):
    """Runs llc as asked, then checks the PTX it wrote."""
    output = output_of(args)
    stdout = subprocess.PIPE if output == "-" else None
    result = subprocess.run([llc] + args, stdout=stdout)
    if output == "-":
        sys.stdout.buffer.write(result.stdout or b"")
        sys.stdout.flush()
    if result.returncode != 0 or output is None:
        return result.returncode
    if output == "-":
        ptx = (result.stdout or b"").decode("utf-8", "replace")
    else:
        with open(output, encoding="utf-8", errors="replace") as f:
            ptx = f.read()
    return check(ptx, tools, "llc " + " ".join(args))


def main():
    args = sys.argv[1:]
    tools = find_tools()
    if args[:1] == ["--llc"]:
        if len(args) < 2:
            print("usage: ptxas_check.py --llc LLC [ARG...]", file=sys.stderr)
            return 2
        return run_llc(args[1], args[2:], tools)
    if len(args) > 1 or args[:1] in (["-h"], ["--help"]):
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    if args:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            ptx = f.read()
    else:
        ptx = sys.stdin.read()
        sys.stdout.write(ptx)
        sys.stdout.flush()
    return check(ptx, tools, args[0] if args else "stdin")


if __name__ == "__main__":
    sys.exit(main())
