#!/usr/bin/env python3
"""Compare CUDA kernels compiled with and without ptxcc, by what the GPU runs.

Usage:
    scripts/compare.py [options] FILE.cu [FILE.cu ...]

Each file is compiled by clang to device LLVM IR (in a temporary directory)
and then to PTX three ways, in each flow asked for (--flow, repeatable;
default a):

    llc     without ptxcc
    ptxcc   with ptxcc's pipeline
    whole   with ptxcc's pipeline and whole-program=true

    a  where clang and llc put ptxcc: clang -O2 IR
           llc:    llc FILE.ll
           ptxcc:  ptxcc-opt FILE.ll --ptxcc-pipeline --emit=ptx
                   (LLVM IR in, PTX out, in process: the same PTX as
                   ptxcc-opt | mlir-translate --mlir-to-llvmir | llc)
    b  where MLIR compilers put ptxcc, before LLVM's optimizer: unoptimized IR
       (clang -O0 -Xclang -disable-O0-optnone)
           llc:    opt -O3 | llc
           ptxcc:  import | ptxcc-opt --ptxcc-pipeline=llvm-opt-after=true
                   | translate | opt -O3 | llc
    c  the MLIR GPU flow: the unoptimized IR, imported, inside
       gpu.module @kernels [#nvvm.target<O = 3, chip, features>] of a
       gpu.container_module
           llc:    mlir-opt --gpu-module-to-binary=format=isa
           ptxcc:  ptxcc-opt --ptxcc-pipeline | mlir-opt --gpu-module-to-binary=format=isa
       (upstream's serialization runs LLVM's optimizer at O = 3, then llc)

and, once per file, by NVIDIA's compiler (`nvcc -ptx -arch=CHIP`, the
column `nvcc`; the source is read through scripts/nvcc_compat.h, which
spells clang's NVVM builtins as CUDA's functions).

Every PTX is assembled by NVIDIA's ptxas (scripts/nvidia_tools.py; see
scripts/sass.py): whole-program where llc's PTX of the flow declares no
`.extern` function or variable, with -c otherwise (the same mode for
llc, ptxcc and whole-program; nvcc's by its own PTX). For every function llc alone's PTX has
(kernels, then device functions; for a device function ptxcc split in a
wrapper and an internal clone, the clone `NAME_ptxcc`, which is what the
module's calls reach) the script prints, llc / ptxcc / whole / nvcc:

    regs      registers ptxas allocates (kernels: ptxas prints no figure
              for a device function)
    stack     the function's own stack frame bytes
    spills    spill store + spill load bytes
    sass      SASS instructions (NOPs left out): a kernel counts its whole
              section, the copies of the device functions it calls included
              when assembled whole-program
    local     PTX `.local` depot bytes (kernels), information only
    ld/st.local, ld/st.param, ptx instrs: PTX counts (kernels), information

`-` is a figure that does not exist (nvcc inlined the function, or failed:
its stderr is printed, and nvcc never decides the verdict).

Verdicts. A ptxas error or warning on ptxcc's (or whole-program's) PTX that
llc's own PTX of the same flow does not get is a failure (its message
printed), whatever the options. With --strict a function is WORSE when,
with ptxcc or with whole-program, its stack + spill bytes exceed llc
alone's, or its registers let an SM hold fewer of its warps than llc
alone's do (scripts/sass.py resident_warps: up to 32 registers never
limit on sm_90, 33-40 allow 48 warps, ...) while its stack + spill bytes
did not fall (local memory traded for registers is promote-local-arrays'
purpose, as in NVIDIA's compiler): what the GPU runs, not what
PTX looks like. With
--strict-ptx a kernel is WORSE by the PTX rule this script applied before
ptxas judged (more local bytes or ld/st.local; more PTX instructions
where ld/st.local did not fall; more ld/st.param than it saves
ld/st.local). The exit status is 1 when a
function is worse, a kernel is missing from one PTX, or a tool fails, and 0
otherwise; the last lines are a summary with the totals (kernels: registers,
SASS; all functions: stack, spills), over all flows and, with several, per
flow.

Options:
    --flow a|b|c          the flows to compare (repeatable; default a)
    --strict              SASS figures decide (needs ptxas: exit 2 without)
    --strict-ptx          PTX figures decide (kernels)
    --no-nvcc             leave NVIDIA's compiler out
    --llvm-bin DIR        clang, opt, llc, mlir-translate and mlir-opt (default /usr/lib/llvm-22/bin)
    --ptxcc-opt PATH      the driver (default <repo>/target/debug/ptxcc-opt)
    --chip CHIP           --cuda-gpu-arch / llc -mcpu / ptxcc chip / nvcc -arch (default sm_90)
    --ptx NN              PTX version x10: +ptxNN for clang and llc, ptxcc's ptx (default 80)
    --strip-attributes    before the compilations, remove from the IR the
                          attributes an optimiser infers but MLIR front ends
                          never emit: readonly, writeonly, readnone, nocapture,
                          captures(...), memory(...), initializes(...) (only
                          attribute tokens: names, strings and comments are
                          left alone; an attribute group left empty gets the
                          meaningless string attribute "compare-local-stripped")
    --markdown            print the table as markdown
    --against-flow-a      with flow a and flow b or c: a kernel is also WORSE
                          when, with ptxcc in flow b or c, its stack + spill
                          bytes exceed its own with ptxcc in flow a or nvcc's,
                          or its SASS instructions exceed 1.25 times and 32
                          more than its own in flow a (ptxcc before LLVM's
                          optimizer must get flow a's results, not only beat
                          llc's; a few instructions of a small kernel's -O0
                          shape are not judged)
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gpu_binary_ptx import gpu_binaries  # noqa: E402
from gpu_module import in_gpu_module  # noqa: E402
from nvidia_tools import find_tools  # noqa: E402
from ptx_metrics import kernel_bodies, measure, strip_attributes  # noqa: E402
from sass import assemble, costs_more, counterpart, whole_program, without_clones  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The PTX variants of one flow, in the table's order.
VARIANTS = ("llc", "ptxcc", "whole")


class ToolError(Exception):
    """A tool exited with a non-zero status."""

    def __init__(self, what, command, stderr):
        super().__init__(what)
        self.what = what
        self.command = command
        self.stderr = stderr


def run(what, command):
    """Runs a command; raises ToolError with its stderr if it fails."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise ToolError(what, command, result.stderr)


def read(path):
    with open(path) as f:
        return f.read()


def compile_file(path, flow, args, tmp):
    """Compiles one .cu file in `flow`: {variant: PTX text}."""
    def llvm(tool):
        return os.path.join(args.llvm_bin, tool)

    base = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0] + "." + flow)
    target = ["-mtriple=nvptx64-nvidia-cuda", f"-mcpu={args.chip}", f"-mattr=+ptx{args.ptx}"]
    llc = [llvm("llc")] + target
    optimize = ["-O2"] if flow == "a" else ["-O0", "-Xclang", "-disable-O0-optnone"]

    ll = base + ".ll"
    run(
        "clang",
        [llvm("clang"), "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={args.chip}",
         "-nocudainc", "-nocudalib", "-Xclang", "-target-feature", "-Xclang", f"+ptx{args.ptx}",
         *optimize, "-S", "-emit-llvm", path, "-o", ll],
    )
    if args.strip_attributes:
        stripped = strip_attributes(read(ll))
        ll = base + ".stripped.ll"
        with open(ll, "w") as f:
            f.write(stripped)
    # ptxcc-opt's import keeps __grid_constant__ (mlir-translate's drops it).
    run("ptxcc-opt (import)", [args.ptxcc_opt, ll, "-o", base + ".mlir"])
    # Flow b tells ptxcc that LLVM's optimizer comes next; in flow c the
    # gpu.module's #nvvm.target says so (llvm-opt-after=auto).
    after = " llvm-opt-after=true" if flow == "b" else ""
    pipelines = {
        "ptxcc": [args.ptxcc_opt, f"--ptxcc-pipeline=chip={args.chip} ptx={args.ptx}{after}"],
        "whole": [args.ptxcc_opt, f"--ptxcc-pipeline=chip={args.chip} ptx={args.ptx}{after} whole-program=true"],
    }
    texts = {}
    if flow == "c":
        target = f'#nvvm.target<O = 3, chip = "{args.chip}", features = "+ptx{args.ptx}">'
        gpu = base + ".gpu.mlir"
        with open(gpu, "w") as f:
            f.write(in_gpu_module(read(base + ".mlir"), target))
        sources = {"llc": gpu}
        for variant, pipeline in pipelines.items():
            sources[variant] = f"{base}.{variant}.mlir"
            run(f"ptxcc-opt ({variant})", pipeline + [gpu, "-o", sources[variant]])
        for variant, source in sources.items():
            binary = source + ".bin"
            run(f"mlir-opt --gpu-module-to-binary ({variant})",
                [llvm("mlir-opt"), source, "--gpu-module-to-binary=format=isa", "-o", binary])
            texts[variant] = "\n".join(ptx for _, ptx in gpu_binaries(read(binary)))
        return texts
    opt = [llvm("opt"), "-O3"] + target
    plain = ll
    if flow == "b":
        run("opt -O3 (llc)", opt + [ll, "-o", base + ".opt.ll"])
        plain = base + ".opt.ll"
    # llc without ptxcc also proves that the stripped IR still parses.
    run("llc (llc)", llc + [plain, "-o", base + ".llc.ptx"])
    texts["llc"] = read(base + ".llc.ptx")
    for variant, pipeline in pipelines.items():
        ptx = f"{base}.{variant}.ptx"
        if flow == "a":
            run(f"ptxcc-opt --emit=ptx ({variant})", pipeline + [ll, "--emit=ptx", "-o", ptx])
        else:
            lowered = f"{base}.{variant}"
            run(f"ptxcc-opt ({variant})", pipeline + [base + ".mlir", "-o", lowered + ".mlir"])
            run(f"mlir-translate --mlir-to-llvmir ({variant})",
                [llvm("mlir-translate"), "--mlir-to-llvmir", lowered + ".mlir", "-o", lowered + ".ll"])
            run(f"opt -O3 ({variant})", opt + [lowered + ".ll", "-o", lowered + ".opt.ll"])
            run(f"llc ({variant})", llc + [lowered + ".opt.ll", "-o", ptx])
        texts[variant] = read(ptx)
    return texts


def compile_nvcc(path, args, tools, tmp):
    """NVIDIA's compiler's PTX of one .cu file, or None (and why)."""
    command = tools.nvcc_command()
    if command is None:
        return None, "no nvcc"
    output = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0] + ".nvcc.ptx")
    command += ["-ptx", f"-arch={args.chip}", "-include", os.path.join(REPO, "scripts", "nvcc_compat.h"),
                path, "-o", output]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip()
    return read(output), None


class Measured:
    """One PTX text, measured: PTX figures per kernel, ptxas's per function."""

    def __init__(self, ptx, tools, whole):
        self.kernels = {name: measure(body) for name, body in kernel_bodies(ptx)}
        self.assembly = assemble(ptx, tools, whole) if tools.ptxas else None

    def function(self, name):
        """The figures of `name`, or of its clone `name_ptxcc` (what the
        module's calls reach) when ptxcc split it; None if absent."""
        return counterpart(self.assembly.functions, name) if self.assembly else None

    def diagnostics(self):
        """ptxas's diagnostics, clone suffixes removed (so two compare)."""
        if self.assembly is None:
            return set()
        return without_clones(self.assembly.diagnostics)


def cell(values):
    """`a / b / c / d` with `-` for a missing figure."""
    return " / ".join("-" if v is None else str(v) for v in values)


def plural(count, word):
    """`1 file`, `2 files`."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def print_table(header, rows, markdown):
    """Prints the rows (the last cell marks a regression) as text or markdown."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" if i < 3 else "---:" for i in range(len(header) - 1)) + "|---|")
        for row in rows:
            print("| " + " | ".join(row[:-1] + [f"**{row[-1]}**" if row[-1] else ""]) + " |")
        return
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def against_flow_a(by_flow):
    """The kernels of flows b and c that do worse with ptxcc than in flow a
    (--against-flow-a), each printed; returns how many."""
    found = 0
    for (flow, path, name), (local, sass, nvcc_local) in sorted(by_flow.items()):
        if flow == "a" or ("a", path, name) not in by_flow:
            continue
        local_a, sass_a, _ = by_flow[("a", path, name)]
        why = []
        if local > local_a:
            why.append(f"stack + spills {local} bytes, {local_a} in flow a")
        if nvcc_local is not None and local > nvcc_local:
            why.append(f"stack + spills {local} bytes, nvcc's {nvcc_local}")
        if sass is not None and sass_a is not None and sass > 1.25 * sass_a and sass > sass_a + 32:
            why.append(f"{sass} SASS instructions, {sass_a} in flow a")
        if why:
            found += 1
            print(f"WORSE than flow a: {os.path.basename(path)}: flow {flow}: {name}: {'; '.join(why)}",
                  file=sys.stderr)
    return found


def main():
    parser = argparse.ArgumentParser(
        description="Compare kernels compiled without and with ptxcc (and by nvcc), by ptxas's figures.",
        epilog="See the module docstring for the figures and the exit status.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.cu")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "debug", "ptxcc-opt"))
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--ptx", type=int, default=80)
    parser.add_argument("--strip-attributes", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--flow", action="append", choices=["a", "b", "c"])
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("--strict-ptx", action="store_true")
    parser.add_argument("--no-nvcc", action="store_true")
    parser.add_argument("--against-flow-a", action="store_true")
    args = parser.parse_args()
    flows = args.flow or ["a"]
    tools = find_tools()
    if args.strict and not tools.ptxas:
        print("compare: --strict needs ptxas (scripts/nvidia_tools.py ensure)", file=sys.stderr)
        return 2

    header = ["flow", "file", "function", "regs", "stack", "spills", "sass", "local", "ld/st.local",
              "ld/st.param", "ptx instrs", ""]
    rows = []
    functions = worse = failures = 0
    # Totals per column of ptxas figures, llc / ptxcc / whole / nvcc.
    totals = {key: [0, 0, 0, 0] for key in ("regs", "stack", "spills", "sass")}
    # The same per flow.
    flow_totals = {flow: {key: [0, 0, 0, 0] for key in totals} for flow in flows}
    nvcc_cache = {}
    # Kernels' stack + spills and SASS with ptxcc, and nvcc's stack + spills,
    # per (flow, file, kernel), for --against-flow-a.
    by_flow = {}
    with tempfile.TemporaryDirectory(prefix="compare.") as tmp:
        for flow in flows:
            for path in args.files:
                try:
                    texts = compile_file(path, flow, args, tmp)
                except ToolError as error:
                    failures += 1
                    print(f"error: {path}: flow {flow}: {error.what} failed: {' '.join(error.command)}",
                          file=sys.stderr)
                    sys.stderr.write(error.stderr)
                    continue
                # One mode for the three, llc's: whole-program only where
                # llc's PTX is a whole program (a figure of -c against one
                # of whole-program would compare two ABIs).
                whole = whole_program(texts["llc"])
                measured = {variant: Measured(texts[variant], tools, whole) for variant in VARIANTS}
                if path not in nvcc_cache:
                    nvcc_ptx, why = (None, "left out") if args.no_nvcc else compile_nvcc(path, args, tools, tmp)
                    if why and not args.no_nvcc:
                        print(f"note: {path}: nvcc: {why}", file=sys.stderr)
                    nvcc_cache[path] = Measured(nvcc_ptx, tools, whole_program(nvcc_ptx)) if nvcc_ptx else None
                nvcc = nvcc_cache[path]
                where = f"{path}: flow {flow}"

                # Diagnostics ptxcc's PTX gets and llc's own does not.
                for variant in ("ptxcc", "whole"):
                    run_ok = measured[variant].assembly is None or measured[variant].assembly.ok
                    new = measured[variant].diagnostics() - measured["llc"].diagnostics()
                    for kind, message in sorted(new):
                        failures += 1
                        print(f"error: {where}: ptxas {kind} on {variant}'s PTX only: {message}", file=sys.stderr)
                    if not run_ok and not new:
                        failures += 1
                        print(f"error: {where}: ptxas failed on {variant}'s PTX:\n"
                              f"{measured[variant].assembly.log}", file=sys.stderr)

                kernels = sorted(measured["llc"].kernels.keys() | measured["ptxcc"].kernels.keys()
                                 | measured["whole"].kernels.keys())
                devices = []
                if measured["llc"].assembly:
                    devices = sorted(name for name, figures in measured["llc"].assembly.functions.items()
                                     if not figures.kernel)
                for name in kernels + devices:
                    is_kernel = name in kernels
                    if is_kernel and any(name not in measured[v].kernels for v in VARIANTS):
                        failures += 1
                        missing = [v for v in VARIANTS if name not in measured[v].kernels]
                        print(f"error: {where}: kernel {name} missing from the PTX of {', '.join(missing)}",
                              file=sys.stderr)
                        continue
                    functions += 1
                    figures = [measured[v].function(name) for v in VARIANTS]
                    figures.append(nvcc.function(name) if nvcc else None)

                    def column(get):
                        return [None if f is None else get(f) for f in figures]

                    regs = column(lambda f: f.registers)
                    stack = column(lambda f: f.stack)
                    spills = column(lambda f: f.spills)
                    sass = column(lambda f: f.sass)
                    for key, values in (("regs", regs), ("stack", stack), ("spills", spills), ("sass", sass)):
                        if key == "sass" and not is_kernel:
                            continue
                        for i, value in enumerate(values):
                            totals[key][i] += value or 0
                            flow_totals[flow][key][i] += value or 0

                    if is_kernel and figures[1] is not None:
                        nvcc_local = None if figures[3] is None else figures[3].stack + figures[3].spills
                        by_flow[(flow, path, name)] = (figures[1].stack + figures[1].spills, figures[1].sass,
                                                       nvcc_local)
                    regressed = False
                    if args.strict and figures[0] is not None:
                        regressed = any(f is not None and costs_more(figures[0], f, args.chip) for f in figures[1:3])
                    ptx = [measured[v].kernels.get(name) for v in ("llc", "ptxcc")] if is_kernel else [None, None]
                    if args.strict_ptx and is_kernel:
                        (bytes_a, local_a, inst_a, param_a), (bytes_p, local_p, inst_p, param_p) = ptx
                        # More ld/st.param only where it replaces more
                        # ld/st.local (a struct read from param space where
                        # llc copies it to local memory and reads the copy);
                        # more instructions only where ld/st.local did not
                        # fall (an unrolled loop over an array now in
                        # registers).
                        regressed = regressed or bytes_p > bytes_a or local_p > local_a \
                            or (inst_p > inst_a and local_p >= local_a) \
                            or param_p - param_a > max(0, local_a - local_p)
                    worse += regressed

                    def ptx_cell(index):
                        return cell([p[index] if p else None for p in ptx]) if is_kernel else ""

                    label = name if is_kernel else f"{name} (device)"
                    rows.append([flow, os.path.basename(path), label, cell(regs) if is_kernel else "",
                                 cell(stack), cell(spills), cell(sass), ptx_cell(0), ptx_cell(1), ptx_cell(3),
                                 ptx_cell(2), "WORSE" if regressed else ""])

    if args.against_flow_a:
        worse += against_flow_a(by_flow)

    print("columns: llc / ptxcc / ptxcc whole-program / nvcc" + ("" if tools.ptxas else
                                                                  " (no ptxas: SASS figures missing)"))
    print_table(header, rows, args.markdown)
    mode = ", attributes stripped" if args.strip_attributes else ""
    mode += ", strict" if args.strict else ""
    mode += ", strict-ptx" if args.strict_ptx else ""
    total = "; ".join(f"{key} {cell(values)}" for key, values in totals.items()) if tools.ptxas else "no ptxas"
    print(f"\ncompare: totals {total}")
    if tools.ptxas and len(flows) > 1:
        for flow in flows:
            figures = "; ".join(f"{key} {cell(values)}" for key, values in flow_totals[flow].items())
            print(f"compare: flow {flow} totals {figures}")
    print(f"compare: {plural(functions, 'function')} in {plural(len(args.files), 'file')}, "
          f"flow {'+'.join(flows)}{mode}; ptxcc worse: {worse}; failures: {failures}")
    return 1 if worse or failures else 0


if __name__ == "__main__":
    sys.exit(main())
