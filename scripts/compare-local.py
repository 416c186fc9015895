#!/usr/bin/env python3
"""Compare the local memory of CUDA kernels compiled by llc alone and through ptxcc.

Usage:
    scripts/compare-local.py [options] FILE.cu [FILE.cu ...]

Each file is compiled by clang to device LLVM IR at -O2 (in a temporary
directory), then to PTX in two ways:

    llc alone      llc FILE.ll
    ptxcc + llc    mlir-translate --import-llvm FILE.ll
                   | ptxcc-opt --ptxcc-pipeline | mlir-translate --mlir-to-llvmir | llc

For every `.entry` kernel of the two PTX files the script prints

    local bytes    the sizes of the `.local .align N .b8 __local_depotK[SIZE];`
                   declarations of the kernel, summed;
    ld+st.local    the number of `ld.local*` and `st.local*` instructions (a
                   generic `ld`/`st` through a cvta'd local address is not
                   counted);
    instructions   the number of PTX statements in the kernel's body: text
                   ending in `;`, comments and labels removed, that does not
                   begin with `.` (so `.reg`, `.local`, `.param` and other
                   declarations and directives are left out, and a call is one
                   instruction whatever the number of lines it spans).

The exit status is 1 when, for some kernel, ptxcc + llc has more local bytes
or more ld/st.local instructions than llc alone, when a kernel is missing
from one of the two PTX files, or when a tool fails (its stderr is printed);
it is 0 otherwise. The last line of the output is a summary.

Options:
    --llvm-bin DIR        clang, llc and mlir-translate (default /usr/lib/llvm-22/bin)
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


def compile_file(path, args, tmp):
    """Compiles one .cu file both ways; returns ({kernel: metrics}, {kernel: metrics})."""
    def llvm(tool):
        return os.path.join(args.llvm_bin, tool)

    base = os.path.join(tmp, os.path.splitext(os.path.basename(path))[0])
    llc = [llvm("llc"), "-mtriple=nvptx64-nvidia-cuda", f"-mcpu={args.chip}", f"-mattr=+ptx{args.ptx}"]

    ll = base + ".ll"
    run(
        "clang",
        [llvm("clang"), "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={args.chip}",
         "-nocudainc", "-nocudalib", "-Xclang", "-target-feature", "-Xclang", f"+ptx{args.ptx}",
         "-O2", "-S", "-emit-llvm", path, "-o", ll],
    )
    if args.strip_attributes:
        with open(ll) as f:
            stripped = strip_attributes(f.read())
        ll = base + ".stripped.ll"
        with open(ll, "w") as f:
            f.write(stripped)

    # llc alone also proves that the stripped IR still parses.
    run("llc (llc alone)", llc + [ll, "-o", base + ".llc.ptx"])
    run("mlir-translate --import-llvm", [llvm("mlir-translate"), "--import-llvm", ll, "-o", base + ".mlir"])
    run(
        "ptxcc-opt",
        [args.ptxcc_opt, base + ".mlir", f"--ptxcc-pipeline=chip={args.chip} ptx={args.ptx}",
         "-o", base + ".ptxcc.mlir"],
    )
    run(
        "mlir-translate --mlir-to-llvmir",
        [llvm("mlir-translate"), "--mlir-to-llvmir", base + ".ptxcc.mlir", "-o", base + ".ptxcc.ll"],
    )
    run("llc (ptxcc + llc)", llc + [base + ".ptxcc.ll", "-o", base + ".ptxcc.ptx"])

    results = []
    for ptx in (base + ".llc.ptx", base + ".ptxcc.ptx"):
        with open(ptx) as f:
            results.append({name: measure(body) for name, body in kernel_bodies(f.read())})
    return results


def plural(count, word):
    """`1 file`, `2 files`."""
    return f"{count} {word}" + ("" if count == 1 else "s")


def print_table(rows, markdown):
    """Prints the rows (the last cell marks a regression) as text or markdown."""
    header = ["file", "kernel", "local bytes llc / ptxcc", "ld+st.local llc / ptxcc",
              "instructions llc / ptxcc", ""]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|---|---|---:|---:|---:|---|")
        for row in rows:
            print("| " + " | ".join(row[:-1] + [f"**{row[-1]}**" if row[-1] else ""]) + " |")
        return
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


def main():
    parser = argparse.ArgumentParser(
        description="Compare kernel local memory: llc alone vs ptxcc + llc.",
        epilog="See the module docstring for the metrics and the exit status.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.cu")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    parser.add_argument("--ptxcc-opt", default=os.path.join(REPO, "target", "debug", "ptxcc-opt"))
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--ptx", type=int, default=80)
    parser.add_argument("--strip-attributes", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    rows = []
    kernels = worse = failures = 0
    with tempfile.TemporaryDirectory(prefix="compare-local.") as tmp:
        for path in args.files:
            try:
                alone, ptxcc = compile_file(path, args, tmp)
            except ToolError as error:
                failures += 1
                print(f"error: {path}: {error.what} failed: {' '.join(error.command)}", file=sys.stderr)
                sys.stderr.write(error.stderr)
                continue
            for name in sorted(alone.keys() | ptxcc.keys()):
                if name not in alone or name not in ptxcc:
                    failures += 1
                    where = "llc alone" if name not in alone else "ptxcc + llc"
                    print(f"error: {path}: kernel {name} missing from the {where} PTX", file=sys.stderr)
                    continue
                kernels += 1
                (bytes_a, access_a, inst_a), (bytes_p, access_p, inst_p) = alone[name], ptxcc[name]
                regressed = bytes_p > bytes_a or access_p > access_a
                worse += regressed
                rows.append([path, name, f"{bytes_a} / {bytes_p}", f"{access_a} / {access_p}",
                             f"{inst_a} / {inst_p}", "WORSE" if regressed else ""])

    print_table(rows, args.markdown)
    mode = ", attributes stripped" if args.strip_attributes else ""
    print(f"\ncompare-local: {plural(kernels, 'kernel')} in {plural(len(args.files), 'file')}{mode}; "
          f"ptxcc worse than llc alone: {worse}; failures: {failures}")
    return 1 if worse or failures else 0


if __name__ == "__main__":
    sys.exit(main())
