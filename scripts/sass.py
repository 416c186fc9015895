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

A PTX whose module declares `.extern` functions or variables is not a whole
program (ptxas would only say "Unresolved extern"): whole_program() tells.

costs_more(base, new, chip) is the verdict the comparison script and the
fuzzer share: more stack + spill bytes, or registers that let an SM hold
fewer warps of the kernel (resident_warps: a register more or less costs
nothing until it crosses one of those steps; 24 -> 32 registers does not,
32 -> 33 does) where stack + spill bytes did not fall: a per-thread array
kept in registers instead of local memory (promote-local-arrays, as
NVIDIA's compiler does) trades warps for local traffic on purpose.
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
    the function's stack + spill bytes did not fall. (Local memory traded
    for registers, the trade NVIDIA's compiler makes when it keeps a
    per-thread array in registers, is not a cost here: each byte it saves
    is a local load or store of every thread.)"""
    if new.stack + new.spills > base.stack + base.spills:
        return f"stack + spills {base.stack} + {base.spills} -> {new.stack} + {new.spills} bytes"
    traded = new.stack + new.spills < base.stack + base.spills
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
        if result.returncode == 0 and sass and tools.nvdisasm:
            listing = subprocess.run([tools.nvdisasm, "-c", cubin], capture_output=True, text=True)
            if listing.returncode == 0:
                for name, count in count_sass(listing.stdout).items():
                    if name in functions:
                        functions[name].sass = count
        return Assembly(result.returncode, diagnostics_of(log), functions, log)
