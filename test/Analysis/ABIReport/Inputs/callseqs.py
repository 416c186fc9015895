"""Prints every call sequence, as `callseq N` then its lines sorted, from
either llc's PTX (`--ptx`: the lines of each `{ // callseq N` block that
belong to the sequence: `.param` declarations, stores into `paramK`, loads
from `retval0`, the prototype and the call; registers become `_`, the callee
register `%callee`) or ptxcc-abi-report's output (`--report`: the lines
under each `//  call ...: callseq N`)."""
import re
import sys


def registers(text):
    text = text.strip().rstrip(";")
    if text.startswith("{"):
        return "{" + ", ".join(["_"] * (text.count(",") + 1)) + "}"
    return "_"


def from_ptx(lines):
    sequences, current = {}, None
    for raw in lines:
        line = " ".join(raw.split("//")[0].split())
        start = re.match(r"\s*\{ // callseq (\d+),", raw)
        if start:
            current = int(start.group(1))
            sequences[current] = []
            continue
        if raw.strip().startswith("} // callseq"):
            current = None
            continue
        if current is None:
            continue
        if line.startswith((".param ", "prototype_")):
            sequences[current].append(line)
        elif line.startswith("st.param") and "[param" in line:
            head, value = line.split("], ", 1)
            sequences[current].append(f"{head}], {registers(value)};")
        elif line.startswith("ld.param") and "[retval0" in line:
            opcode, rest = line.split(" ", 1)
            value, address = rest.rsplit(", [", 1)
            sequences[current].append(f"{opcode} {registers(value)}, [{address}")
        elif line.startswith("call"):
            sequences[current].append(re.sub(r"%rd\d+,", "%callee,", line))
    return sequences


def from_report(lines):
    sequences, current = {}, None
    for line in lines:
        start = re.match(r"//  call .*: callseq (\d+)$", line.rstrip())
        if start:
            current = int(start.group(1))
            sequences[current] = []
        elif current is not None and line.startswith("//    "):
            sequences[current].append(line[6:].rstrip())
        else:
            current = None
    return sequences


sequences = from_ptx(sys.stdin) if sys.argv[1] == "--ptx" else from_report(sys.stdin)
for number in sorted(sequences):
    print(f"callseq {number}")
    for line in sorted(sequences[number]):
        print(f"  {line}")
