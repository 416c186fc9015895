"""Prints the PTX inside the `gpu.binary` ops of an MLIR module (what
upstream `mlir-opt --gpu-module-to-binary=format=isa` leaves), unescaped,
each after a `// gpu.binary @name` line, for FileCheck.

  mlir-opt k.mlir --gpu-module-to-binary=format=isa | python3 gpu_binary_ptx.py

Exits 1 when the input holds no `gpu.binary` with an `assembly`.
"""
import re
import sys


def unescape(text):
    """MLIR string escapes: `\\XX` (two hex digits), `\\\\`, `\\"`, `\\n`, `\\t`."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in '\\"':
                out += nxt.encode()
                i += 2
                continue
            if nxt in "nt":
                out += b"\n" if nxt == "n" else b"\t"
                i += 2
                continue
            if re.fullmatch(r"[0-9A-Fa-f]{2}", text[i + 1 : i + 3]):
                out.append(int(text[i + 1 : i + 3], 16))
                i += 3
                continue
        out += c.encode()
        i += 1
    return out.decode(errors="replace")


def gpu_binaries(source):
    """Yields (name, PTX) for each `gpu.binary` with an `assembly` in an MLIR
    module's text."""
    for binary in re.finditer(r"gpu\.binary @([\w$.-]+)", source):
        rest = source[binary.end() :]
        assembly = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', rest)
        if assembly:
            yield binary.group(1), unescape(assembly.group(1))


def main():
    found = 0
    for name, ptx in gpu_binaries(sys.stdin.read()):
        found += 1
        print(f"// gpu.binary @{name}")
        print(ptx)
    if not found:
        sys.exit("no gpu.binary with an assembly in the input")


if __name__ == "__main__":
    main()
