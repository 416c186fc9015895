#!/usr/bin/env python3
"""Compare CUDA kernels compiled with and without ptxcc, in three flows.

Usage:
    scripts/compare-local.py [options] FILE.cu [FILE.cu ...]

Each file is compiled by clang to device LLVM IR (in a temporary directory)
and then to PTX with and without ptxcc, in each flow asked for (--flow,
repeatable; default a):

    a  where clang and llc put ptxcc: clang -O2 IR
           without: llc FILE.ll
           with:    ptxcc-opt FILE.ll --ptxcc-pipeline --emit=ptx
                    (LLVM IR in, PTX out, in process: the same PTX as
                    ptxcc-opt | mlir-translate --mlir-to-llvmir | llc)
    b  where MLIR compilers put ptxcc, before LLVM's optimizer: unoptimized IR
       (clang -O0 -Xclang -disable-O0-optnone)
           without: opt -O3 | llc
           with:    import | ptxcc-opt --ptxcc-pipeline=llvm-opt-after=true
                    | translate | opt -O3 | llc
    c  the MLIR GPU flow: the unoptimized IR, imported, inside
       gpu.module @kernels [#nvvm.target<O = 3, chip, features>] of a
       gpu.container_module
           without: mlir-opt --gpu-module-to-binary=format=isa
           with:    ptxcc-opt --ptxcc-pipeline | mlir-opt --gpu-module-to-binary=format=isa
       (upstream's serialization runs LLVM's optimizer at O = 3, then llc)

For every `.entry` kernel the script prints, without / with ptxcc:

    local bytes    the sizes of the `.local .align N .b8 __local_depotK[SIZE];`
                   declarations of the kernel, summed;
    ld+st.local    the number of `ld.local*` and `st.local*` instructions (a
                   generic `ld`/`st` through a cvta'd local address is not
                   counted);
    ld+st.param    the number of `ld.param*` and `st.param*` instructions;
    instructions   the number of PTX statements in the kernel's body: text
                   ending in `;`, comments and labels removed, that does not
                   begin with `.` (so `.reg`, `.local`, `.param` and other
                   declarations and directives are left out, and a call is one
                   instruction whatever the number of lines it spans).

A kernel is WORSE when ptxcc gives it more local bytes or more ld/st.local;
with --strict (what the tests pass) also when it gets more instructions, or
more ld/st.param than it saves ld/st.local (flattening a struct llc would
pass in .v2/.v4 parts, with no local memory to save, is such a regression;
reading a struct's fields from param space where llc copies it to local
memory and reads the copy may take an ld.param more than llc's wider copy
loads, and saves every local access). The exit status is 1 when a kernel is worse,
a kernel is missing from one of the two PTX files, or a tool fails (its
stderr is printed); it is 0 otherwise. The last line of the output is a
summary.

Options:
    --flow a|b|c          the flows to compare (repeatable; default a)
    --strict              instructions and ld/st.local + ld/st.param count as well
    --llvm-bin DIR        clang, opt, llc, mlir-translate and mlir-opt (default /usr/lib/llvm-22/bin)
    --ptxcc-opt PATH      the driver (default <repo>/target/debug/ptxcc-opt)
    --chip CHIP           --cuda-gpu-arch / llc -mcpu / ptxcc chip (default sm_90)
    --ptx NN              PTX version x10: +ptxNN for clang and llc, ptxcc's ptx (default 80)
    --strip-attributes    before both compilations, remove from the IR the
                          attributes an optimiser infers but MLIR front ends
                          never emit: readonly, writeonly, readnone, nocapture,
                          captures(...), memory(...), initializes(...) (only
                          attribute tokens: names, strings and comments are
                          left alone; an attribute group left empty gets the
                          meaningless string attribute "compare-local-stripped")
    --markdown            print the table as markdown
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_metrics import kernel_bodies, measure, strip_attributes  # noqa: E402
from gpu_binary_ptx import gpu_binaries  # noqa: E402
from gpu_module import in_gpu_module  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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


def compile_file(path, flow, args, tmp):
    """Compiles one .cu file without and with ptxcc in `flow`; returns
    ({kernel: metrics}, {kernel: metrics})."""
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
        with open(ll) as f:
            stripped = strip_attributes(f.read())
        ll = base + ".stripped.ll"
        with open(ll, "w") as f:
            f.write(stripped)
    # ptxcc-opt's import keeps __grid_constant__ (mlir-translate's drops it).
    run("ptxcc-opt (import)", [args.ptxcc_opt, ll, "-o", base + ".mlir"])
    # Flow b tells ptxcc that LLVM's optimizer comes next; in flow c the
    # gpu.module's #nvvm.target says so (llvm-opt-after=auto).
    after = " llvm-opt-after=true" if flow == "b" else ""
    ptxcc = [args.ptxcc_opt, f"--ptxcc-pipeline=chip={args.chip} ptx={args.ptx}{after}"]

    if flow == "c":
        with open(base + ".mlir") as f:
            target = f'#nvvm.target<O = 3, chip = "{args.chip}", features = "+ptx{args.ptx}">'
            gpu = in_gpu_module(f.read(), target)
        with open(base + ".gpu.mlir", "w") as f:
            f.write(gpu)
        run("ptxcc-opt", ptxcc + [base + ".gpu.mlir", "-o", base + ".ptxcc.mlir"])
        texts = []
        for source, name in ((base + ".gpu.mlir", "without ptxcc"), (base + ".ptxcc.mlir", "with ptxcc")):
            binary = source + ".bin"
            run(f"mlir-opt --gpu-module-to-binary ({name})",
                [llvm("mlir-opt"), source, "--gpu-module-to-binary=format=isa", "-o", binary])
            with open(binary) as f:
                texts.append("\n".join(ptx for _, ptx in gpu_binaries(f.read())))
    else:
        opt = [llvm("opt"), "-O3"] + target
        plain = ll
        if flow == "b":
            run("opt -O3 (without ptxcc)", opt + [ll, "-o", base + ".opt.ll"])
            plain = base + ".opt.ll"
        # llc without ptxcc also proves that the stripped IR still parses.
        run("llc (without ptxcc)", llc + [plain, "-o", base + ".llc.ptx"])
        if flow == "a":
            run("ptxcc-opt --emit=ptx", ptxcc + [ll, "--emit=ptx", "-o", base + ".ptxcc.ptx"])
        else:
            run("ptxcc-opt", ptxcc + [base + ".mlir", "-o", base + ".ptxcc.mlir"])
            lowered = base + ".ptxcc.ll"
            run("mlir-translate --mlir-to-llvmir",
                [llvm("mlir-translate"), "--mlir-to-llvmir", base + ".ptxcc.mlir", "-o", lowered])
            run("opt -O3 (with ptxcc)", opt + [lowered, "-o", base + ".ptxcc.opt.ll"])
            run("llc (with ptxcc)", llc + [base + ".ptxcc.opt.ll", "-o", base + ".ptxcc.ptx"])
        texts = []
        for ptx in (base + ".llc.ptx", base + ".ptxcc.ptx"):
            with open(ptx) as f:
                texts.append(f.read())
    return [{name: measure(body) for name, body in kernel_bodies(text)} for text in texts]


def plural(count, word):
    """`1 file`, `2 files`."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def print_table(rows, markdown):
    """Prints the rows (the last cell marks a regression) as text or markdown."""
    header = ["flow", "file", "kernel", "local bytes without / with ptxcc", "ld+st.local", "ld+st.param",
              "instructions", ""]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|---|---|---:|---:|---:|---:|---|")
        for row in rows:
            print("| " + " | ".join(row[:-1] + [f"**{row[-1]}**" if row[-1] else ""]) + " |")
        return
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser(
        description="Compare kernels compiled without and with ptxcc, in three flows.",
        epilog="See the module docstring for the metrics and the exit status.",
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
    args = parser.parse_args()
    flows = args.flow or ["a"]

    rows = []
    kernels = worse = failures = 0
    with tempfile.TemporaryDirectory(prefix="compare-local.") as tmp:
        for flow in flows:
            for path in args.files:
                try:
                    alone, ptxcc = compile_file(path, flow, args, tmp)
                except ToolError as error:
                    failures += 1
                    print(f"error: {path}: flow {flow}: {error.what} failed: {' '.join(error.command)}",
                          file=sys.stderr)
                    sys.stderr.write(error.stderr)
                    continue
                for name in sorted(alone.keys() | ptxcc.keys()):
                    if name not in alone or name not in ptxcc:
                        failures += 1
                        where = "without ptxcc" if name not in alone else "with ptxcc"
                        print(f"error: {path}: flow {flow}: kernel {name} missing from the PTX {where}",
                              file=sys.stderr)
                        continue
                    kernels += 1
                    (bytes_a, local_a, inst_a, param_a), (bytes_p, local_p, inst_p, param_p) = alone[name], ptxcc[name]
                    regressed = bytes_p > bytes_a or local_p > local_a
                    if args.strict:
                        # More ld/st.param only where it replaces more
                        # ld/st.local (a struct read from param space where
                        # llc copies it to local memory and reads the copy).
                        regressed = regressed or inst_p > inst_a or param_p - param_a > max(0, local_a - local_p)
                    worse += regressed
                    rows.append([flow, os.path.basename(path), name, f"{bytes_a} / {bytes_p}", f"{local_a} / {local_p}",
                                 f"{param_a} / {param_p}", f"{inst_a} / {inst_p}", "WORSE" if regressed else ""])

    print_table(rows, args.markdown)
    mode = ", attributes stripped" if args.strip_attributes else ""
    mode += ", strict" if args.strict else ""
    print(f"\ncompare-local: {plural(kernels, 'kernel')} in {plural(len(args.files), 'file')}, "
          f"flow {'+'.join(flows)}{mode}; ptxcc worse: {worse}; failures: {failures}")
    return 1 if worse or failures else 0


if __name__ == "__main__":
    sys.exit(main())
