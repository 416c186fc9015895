#!/usr/bin/env python3
"""Breaks ptxcc's output on purpose and checks that diffexec.py catches it.

    sabotage.py PTXCC_OPT

Compiles Inputs/sabotage.cu (clang -O2) through ptxcc-opt --ptxcc-pipeline,
checks that the unbroken output runs the same as the input, then applies
each mutation below to the output's LLVM IR, one at a time, and checks that
the harness reports the mutated kernel (and only that one) as differing or
faulting. Each mutation must find its place in the IR, or the test fails:
a sabotage that changed nothing would prove nothing.
"""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffexec  # noqa: E402


def function_span(text, kernel):
    """(start, end) of the body of the function whose name contains `kernel`."""
    match = re.search(r"^define [^\n]*@\w*" + kernel + r"\w*\(.*?^}", text, re.MULTILINE | re.DOTALL)
    if not match:
        raise AssertionError(f"no function {kernel} in the output")
    return match.start(), match.end()


def in_function(kernel, mutate):
    """A mutation of the body of one function."""

    def apply(text):
        start, end = function_span(text, kernel)
        body = text[start:end]
        changed = mutate(body)
        if changed == body:
            raise AssertionError(f"the mutation found nothing to change in {kernel}")
        return text[:start] + changed + text[end:]

    return apply


def wrong_offset(body):
    """The first param-space field read moves 4 bytes on."""
    return re.sub(r"(getelementptr i8, ptr addrspace\(101\) %\d+, i32 )(\d+)",
                  lambda m: m.group(1) + str(int(m.group(2)) + 4), body, count=1)


def dropped_copy_store(body):
    """The second store of the local copy's expansion (its `<4 x i32>` or
    `i64` pieces) is gone."""
    stores = list(re.finditer(r"^  store (?:<\d+ x i32>|i64) %\d+, ptr %\d+, align \d+\n", body, re.MULTILINE))
    if len(stores) < 2:
        return body
    return body[: stores[1].start()] + body[stores[1].end():]


def swapped_select(body):
    """The last select of the promoted copy's load (the one that gives the
    value read) takes the other element."""
    found = list(re.finditer(r"select i1 (%\d+), i32 (%\d+), i32 (%\d+)", body))
    if not found:
        return body
    last = found[-1]
    swapped = f"select i1 {last.group(1)}, i32 {last.group(3)}, i32 {last.group(2)}"
    return body[:last.start()] + swapped + body[last.end():]


def grid_constant_write(body):
    """A byte written through the generic address of a grid constant."""
    return re.sub(r"^(  (%\d+) = addrspacecast ptr addrspace\(101\) %\d+ to ptr\n)",
                  lambda m: m.group(1) + f"  store i8 0, ptr {m.group(2)}, align 1\n", body, count=1,
                  flags=re.MULTILINE)


def swapped_arguments(body):
    """The two flattened float fields passed in the wrong order."""
    return re.sub(r"(@\w*minus\w*\(float )(%\d+)(, i32 %\d+, float )(%\d+)\)", r"\1\4\3\2)", body, count=1)


def wrong_space(body):
    """The local view of the array made from the global pointer instead."""
    return re.sub(r"(= addrspacecast ptr )%\d+( to ptr addrspace\(5\))", r"\1%0\2", body, count=1)


MUTATIONS = [
    ("wrong offset", "fields", wrong_offset),
    ("dropped store of a copy", "written", dropped_copy_store),
    ("swapped select", "selected", swapped_select),
    ("write through a grid constant", "escaped", grid_constant_write),
    ("swapped flattened arguments", "flattened", swapped_arguments),
    ("cast into the wrong space", "spaces", wrong_space),
]


def main():
    ptxcc_opt = sys.argv[1]
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs", "sabotage.cu")
    failures = []
    with tempfile.TemporaryDirectory(prefix="sabotage.") as workdir:
        mlir = diffexec.cuda_to_mlir(source, workdir, "2", False, ptxcc_opt)
        ref_ll, out_ll = diffexec.through_ptxcc(mlir, workdir, ptxcc_opt, ["--ptxcc-pipeline"])
        verdicts = diffexec.compare_modules(ref_ll, out_ll, workdir)
        print("unbroken output:", ", ".join(f"{v.kernel} {v.kind}" for v in verdicts))
        if any(v.kind != "same" for v in verdicts):
            failures.append("the unbroken output does not run the same as the input")
        with open(out_ll) as f:
            output = f.read()
        for title, kernel, mutate in MUTATIONS:
            broken_ll = os.path.join(workdir, re.sub(r"\W", "_", title) + ".ll")
            with open(broken_ll, "w") as f:
                f.write(in_function(kernel, mutate)(output))
            verdicts = diffexec.compare_modules(ref_ll, broken_ll, os.path.dirname(broken_ll))
            caught = [v for v in verdicts if kernel in v.kernel and v.kind in diffexec.FAILING]
            others = [v for v in verdicts if kernel not in v.kernel and v.kind != "same"]
            print(f"{title}: " + "; ".join(str(v) for v in caught or verdicts))
            if not caught:
                failures.append(f"{title}: not caught")
            if others:
                failures.append(f"{title}: other kernels changed too: {others}")
    for failure in failures:
        print(f"error: {failure}")
    print(f"sabotage: {len(MUTATIONS)} mutations, {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
