"""What the GPU runs: PTX assembled by NVIDIA's ptxas, measured per function.

Used by scripts/ptxas_check.py (the tests' validity check), scripts/compare.py
(the SASS columns) and test/fuzz/fuzz.py (the "worse than llc" oracle).

assemble(ptx, tools, whole_program) runs `ptxas -arch=<the PTX's .target> -v`
on the text, in whole-program mode (what `nvcc` without `-rdc` does: ptxas
sees every function and may specialize calls) or with `-c` (relocatable: each
function is assembled on its own, as when linking separately compiled
units). It returns an Assembly: ptxas's exit status, its error and warning
lines, and per function the figures `-v` prints:

    registers     "Used N registers" (ptxas prints it for kernels only)
    stack         "N bytes stack frame"
    spills        "N bytes spill stores" + "N bytes spill loads"
    sass          SASS instructions nvdisasm lists for the function, NOPs
                  left out. In whole-program mode a kernel's section holds
                  the copies of the device functions it calls, so a kernel
                  counts everything it runs; a device function counts its
                  own copy (the first, when several kernels call it).
    tree          local bytes a thread needs while the function runs: its
                  stack + spills and those of the deepest chain of
                  functions it calls directly (what the driver reserves at a
                  launch). In whole-program mode ptxas folds the callees
                  it can into the kernel's own frame (they read 0; the
                  kernel's figure is then its "cumulative stack size"), so
                  there it is the function's stack + spills; with `-c`
                  each function has its own frame and the call graph of the
                  PTX adds them. A call through a pointer, or back into a
                  function on the chain (recursion), adds nothing.

A PTX whose module declares `.extern` functions or variables is not a whole
program (ptxas would only say "Unresolved extern"): whole_program() tells.

costs_more(base, new, chip) is the verdict the comparison script and the
fuzzer share: more stack + spill bytes, or registers that let an SM hold
fewer warps of the kernel (resident_warps: a register more or less costs
nothing until it crosses one of those steps; 24 -> 32 registers does not,
32 -> 33 does) where the local bytes of its call tree (`tree`) did not
fall: a per-thread array kept in registers instead of local memory
(promote-local-arrays, as NVIDIA's compiler does) trades warps for local
traffic on purpose, in the kernel or in a function it calls.
"""

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Optional

# `.target sm_90` (possibly `, debug` / `, texmode_independent` after it).
TARGET = re.compile(r"^\s*\.target\s+(sm_\w+)", re.M)
# A declaration (no body) of an external function or variable, which no
# single module resolves (`.extern .shared`, dynamic shared memory, is not
# one).
EXTERN = re.compile(r"^\s*\.extern\s+\.(func|global|const)\b", re.M)

PROPERTIES = re.compile(r"Function properties for (\S+)\s*\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores, "
                        r"(\d+) bytes spill loads")
ENTRY = re.compile(r"Compiling entry function '([^']+)'")
REGISTERS = re.compile(r"Used (\d+) registers")
# ptxas's own diagnostics: `ptxas warning : ...`, `ptxas error : ...`,
# `ptxas fatal : ...`, `ptxas /tmp/x.ptx, line 7; error : ...`.
DIAGNOSTIC = re.compile(r"^ptxas\b.*?\b(warning|error|fatal)\s*:(.*)$", re.M)

# nvdisasm -c: `        /*0040*/                   MOV R20, ... ;`
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(\S+)")
SECTION = re.compile(r"^\s*\.section\s+\.text\.([^,\s]+)")
LABEL = re.compile(r"^([^\s/.][^:\s]*):\s*$")

# PTX: a function's definition or declaration (`.visible .entry k(`,
# `.weak .func  (.param .b32 func_retval0) f(`, `.func g()`), and a direct
# call (`call.uni (retval0), f, (param0);`, `call f;`).
FUNCTION = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.(?:entry|func)\s*(?:\([^)]*\)\s*)?([\w$.]+)",
                      re.M)
CALL = re.compile(r"^\s*(?:@!?%\w+\s+)?call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$.][\w$.]*)\s*[,;]",
                  re.M)


# ptxas's answer for a chip it no longer assembles (CUDA 13 begins at sm_75).
UNKNOWN_CHIP = "is not defined for option 'gpu-name'"
# ptxcc's internal clone of an externally visible function: `NAME_ptxcc`,
# `NAME_ptxcc_2` where that name was taken.
CLONE_SUFFIX = re.compile(r"_ptxcc(_\d+)?$")
CLONE_IN_MESSAGE = re.compile(r"_ptxcc(_\d+)?'")


def counterpart(functions, name):
    """The figures of `name` in `functions` ({name: Figures}), or of its
    clone `name_ptxcc` (what the module's calls reach) where ptxcc split it
    into a wrapper and a clone; None if neither is there."""
    clones = [f for f in functions if f != name and CLONE_SUFFIX.sub("", f) == name]
    return functions.get(clones[0]) if clones else functions.get(name)


def without_clones(diagnostics):
    """{(kind, message)} with ptxcc's clone names read as their originals,
    so diagnostics of llc's PTX and ptxcc's compare."""
    return {(kind, CLONE_IN_MESSAGE.sub("'", message)) for kind, message in diagnostics}


# Registers an SM holds (every chip CUDA 13 assembles), in four
# partitions, given to warps in units of 256; and the warps it can hold.
SM_REGISTERS = 65536
REGISTER_UNIT = 256
MAX_WARPS = {"sm_75": 32, "sm_86": 48, "sm_87": 48, "sm_89": 48, "sm_120": 48, "sm_121": 48}


def resident_warps(registers, chip="sm_90"):
    """How many warps of a kernel using `registers` per thread an SM of
    `chip` can hold, as far as registers decide (CUDA's occupancy model:
    per warp, rounded up to 256, within each of four partitions). Up to 32
    registers (64 warps' worth) never limit; 33-40 give 48 warps, 41-48
    40, and so on. No figure: the chip's maximum."""
    most = MAX_WARPS.get(re.sub(r"[af]$", "", chip), 64)
    if not registers:
        return most
    per_warp = -(-registers * 32 // REGISTER_UNIT) * REGISTER_UNIT
    return min(most, 4 * ((SM_REGISTERS // 4) // per_warp))


def costs_more(base, new, chip="sm_90"):
    """Why `new` (Figures) costs the GPU more than `base`, or None: more
    stack + spill bytes, or registers that let an SM hold fewer warps where
    the local bytes of the function's call tree (`tree`) did not fall.
    (Local memory traded for registers, the trade NVIDIA's compiler makes
    when it keeps a per-thread array in registers, is not a cost here: each
    byte it saves is a local load or store of every thread.)"""
    if new.stack + new.spills > base.stack + base.spills:
        return f"stack + spills {base.stack} + {base.spills} -> {new.stack} + {new.spills} bytes"
    traded = new.tree < base.tree
    if not traded and resident_warps(new.registers, chip) < resident_warps(base.registers, chip):
        return (f"registers {base.registers} -> {new.registers} (resident warps "
                f"{resident_warps(base.registers, chip)} -> {resident_warps(new.registers, chip)})")
    return None


@dataclass
class Figures:
    """One function's figures from ptxas -v and nvdisasm."""

    kernel: bool
    registers: Optional[int] = None
    stack: int = 0
    spills: int = 0
    sass: Optional[int] = None
    tree: int = 0


@dataclass
class Assembly:
    """What ptxas (and nvdisasm) made of one PTX text."""

    returncode: int
    # [(kind, message)] with kind warning, error or fatal.
    diagnostics: list
    # {name: Figures}
    functions: dict
    log: str

    @property
    def ok(self):
        return self.returncode == 0


def chip_of(ptx):
    """The `.target` of a PTX text (sm_90 when it names none)."""
    match = TARGET.search(ptx)
    return match.group(1) if match else "sm_90"


def whole_program(ptx):
    """Whether the PTX declares nothing `.extern` (ptxas can link it alone)."""
    return EXTERN.search(ptx) is None


def parse_verbose(log):
    """{name: Figures} from `ptxas -v` output; kernels have registers."""
    functions = {}
    entries = []
    for match in ENTRY.finditer(log):
        entries.append((match.start(), match.group(1)))
    for match in PROPERTIES.finditer(log):
        name = match.group(1)
        figures = Figures(kernel=any(entry == name for _, entry in entries))
        figures.stack = int(match.group(2))
        figures.spills = int(match.group(3)) + int(match.group(4))
        if figures.kernel:
            # The kernel's "Used N registers" line follows its properties.
            used = REGISTERS.search(log, match.end())
            if used:
                figures.registers = int(used.group(1))
        functions[name] = figures
    return functions


def count_sass(listing):
    """{function: SASS instructions} from `nvdisasm -c` output (NOPs left
    out). A section's function counts the whole section; a `$kernel$callee`
    copy inside it also counts for the callee (its first copy)."""
    counts = {}
    section = None
    region = None
    for line in listing.splitlines():
        match = SECTION.match(line)
        if match:
            # A function's own section counts it, even after a copy of it
            # in another kernel's section was counted.
            section = match.group(1)
            region = None
            counts[section] = 0
            continue
        match = LABEL.match(line)
        if match and section:
            label = match.group(1)
            if label.startswith("$") and label.count("$") == 2:
                callee = label.split("$")[2]
                region = callee if callee not in counts else None
                if region:
                    counts[region] = 0
            continue
        match = INSTRUCTION.match(line)
        if match and section and match.group(1) != "NOP":
            counts[section] += 1
            if region:
                counts[region] += 1
    return counts


def call_graph(ptx):
    """{function: {callee}} of the functions `ptx` defines, direct calls
    only (a call through a register names no function)."""
    graph = {}
    current = None
    starts = [(m.start(), m.group(1)) for m in FUNCTION.finditer(ptx)]
    calls = [(m.start(), m.group(1)) for m in CALL.finditer(ptx)]
    index = 0
    for position, callee in calls:
        while index < len(starts) and starts[index][0] < position:
            current = starts[index][1]
            index += 1
        if current is not None:
            graph.setdefault(current, set()).add(callee)
    return graph


def add_call_trees(functions, ptx, whole_program_mode):
    """Sets each Figures' `tree` (see the module's doc): its own stack +
    spills, plus in `-c` mode the deepest chain of callees `ptx` defines."""
    graph = {} if whole_program_mode else call_graph(ptx)
    done = {}

    def tree(name, chain):
        """(bytes, whether a call back into `chain` was left out below)."""
        if name in done:
            return done[name], False
        deepest, cut = 0, False
        for callee in graph.get(name, ()):
            if callee not in functions:
                continue
            if callee in chain:
                cut = True
                continue
            below, below_cut = tree(callee, chain | {callee})
            deepest, cut = max(deepest, below), cut or below_cut
        total = functions[name].stack + functions[name].spills + deepest
        # A figure that left out a recursive call depends on where the walk
        # entered the cycle: it is not kept for other callers.
        if not cut:
            done[name] = total
        return total, cut

    for name in functions:
        functions[name].tree = tree(name, frozenset([name]))[0]


def diagnostics_of(log):
    """[(kind, message)] of ptxas's warnings and errors, messages without
    file names and line numbers (so two PTX texts compare)."""
    found = []
    for match in DIAGNOSTIC.finditer(log):
        message = match.group(2).strip()
        found.append((match.group(1), message))
    return found


def assemble(ptx, tools, whole_program_mode, sass=True):
    """Assembles `ptx` (text) with tools.ptxas; returns an Assembly."""
    with tempfile.TemporaryDirectory(prefix="ptxcc-sass.") as tmp:
        source = os.path.join(tmp, "input.ptx")
        cubin = os.path.join(tmp, "output.cubin")
        with open(source, "w") as f:
            f.write(ptx)
        command = [tools.ptxas, f"-arch={chip_of(ptx)}", "-v", source, "-o", cubin]
        if not whole_program_mode:
            command.insert(1, "-c")
        result = subprocess.run(command, capture_output=True, text=True)
        log = result.stdout + result.stderr
        functions = parse_verbose(log) if result.returncode == 0 else {}
        add_call_trees(functions, ptx, whole_program_mode)
        if result.returncode == 0 and sass and tools.nvdisasm:
            listing = subprocess.run([tools.nvdisasm, "-c", cubin], capture_output=True, text=True)
            if listing.returncode == 0:
                for name, count in count_sass(listing.stdout).items():
                    if name in functions:
                        functions[name].sass = count
        return Assembly(result.returncode, diagnostics_of(log), functions, log)


def main():
    """`sass.py [-c] FILE.ptx`: each function's ptxas figures, one line each
    (`name: stack S spills P tree T [registers R]`), whole-program unless
    `-c`; exit status 1 where ptxas fails."""
    import argparse
    import sys

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from nvidia_tools import find_tools

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("-c", action="store_true", help="relocatable (ptxas -c): each function its own frame")
    parser.add_argument("ptx")
    args = parser.parse_args()
    tools = find_tools()
    if tools.ptxas is None:
        print("sass.py: no ptxas (run `scripts/nvidia_tools.py ensure`)", file=sys.stderr)
        return 1
    with open(args.ptx) as f:
        assembly = assemble(f.read(), tools, not args.c, sass=False)
    if not assembly.ok:
        print(assembly.log, file=sys.stderr)
        return 1
    for name, figures in sorted(assembly.functions.items()):
        registers = "" if figures.registers is None else f" registers {figures.registers}"
        print(f"{name}: stack {figures.stack} spills {figures.spills} tree {figures.tree}{registers}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
