"""What ptxcc's scripts measure in LLVM IR and PTX, shared by
scripts/compare.py, the differential-execution harness
(test/harness/diffexec.py) and the module fuzzer (test/fuzz/fuzz.py).

- strip_attributes(text): LLVM IR without the attributes an optimiser infers
  but MLIR front ends never emit (readonly, writeonly, readnone, nocapture,
  captures(...), memory(...), initializes(...));
- kernel_bodies(ptx): the `.entry` kernels of a PTX file and their bodies;
- measure(body): (local bytes, ld/st.local count, instruction count).
"""

import re

# Attributes strip_attributes removes: bare keywords, and keywords
# followed by a parenthesised argument (nested parentheses in initializes).
BARE_ATTRIBUTES = ("readonly", "writeonly", "readnone", "nocapture")
PAREN_ATTRIBUTES = ("captures", "memory", "initializes")
# A keyword is an attribute only as a whole token: not part of a name such as
# %readonly, @memory or %struct.captures, not a label (`readonly:`).
ATTRIBUTE_RE = re.compile(
    r"(?<![\w.$%@!#\-])(?:({})(?![\w.$:\-(])|({})\()".format(
        "|".join(BARE_ATTRIBUTES), "|".join(PAREN_ATTRIBUTES)
    )
)
# Quoted strings (LLVM escapes a quote inside one as \22) and comments are
# never edited.
STRING_OR_COMMENT_RE = re.compile(r'"[^"]*"|;.*')
# The IR parser rejects an empty attribute group; one left empty by the
# stripping gets a string attribute, which means nothing to LLVM.
EMPTY_GROUP_RE = re.compile(r"^(attributes #\d+ = \{)\s*\}", re.MULTILINE)

ENTRY_RE = re.compile(r"^\s*(?:\.\w+\s+)*\.entry\s+([\w$]+)")
LOCAL_DEPOT_RE = re.compile(r"^\.local\s+\.align\s+\d+\s+\.b8\s+[\w$]+\[(\d+)\]$")
LABEL_RE = re.compile(r"^[\w$]+:$")


def strip_code(code):
    """Removes the attribute tokens from code that holds no string or comment."""
    out = []
    pos = 0
    while True:
        match = ATTRIBUTE_RE.search(code, pos)
        if match is None:
            break
        out.append(code[pos : match.start()])
        end = match.end()
        if match.group(2):
            # Skip the balanced parenthesised argument.
            depth = 1
            while depth and end < len(code):
                depth += {"(": 1, ")": -1}.get(code[end], 0)
                end += 1
        # Drop one separating space, so `ptr readonly %0` becomes `ptr %0`.
        if out[-1].endswith(" ") and (end == len(code) or code[end] in " ,)}"):
            out[-1] = out[-1][:-1]
        elif end < len(code) and code[end] == " ":
            end += 1
        pos = end
    out.append(code[pos:])
    return "".join(out)


def strip_attributes(text):
    """Removes inferred attributes from LLVM IR text, leaving strings and comments."""
    lines = []
    for line in text.splitlines(keepends=True):
        pieces = []
        pos = 0
        for match in STRING_OR_COMMENT_RE.finditer(line):
            pieces.append(strip_code(line[pos : match.start()]))
            pieces.append(match.group(0))
            pos = match.end()
        pieces.append(strip_code(line[pos:]))
        lines.append("".join(pieces))
    return EMPTY_GROUP_RE.sub(r'\1 "compare-local-stripped" }', "".join(lines))


def kernel_bodies(ptx):
    """Yields (name, body lines) for each .entry of a PTX file.

    The body is everything between the kernel's opening brace and the
    matching closing one, with `//` comments removed.
    """
    name = None
    depth = 0
    body = []
    for raw in ptx.splitlines():
        line = raw.split("//", 1)[0].strip()
        if name is None:
            match = ENTRY_RE.match(line)
            if match:
                name = match.group(1)
            continue
        opens, closes = line.count("{"), line.count("}")
        if depth == 0 and opens == 0:
            if line.endswith(";"):
                name = None  # a prototype, no body
            continue  # still in the parameter list
        if depth > 0 and depth - closes + opens <= 0:
            yield name, body
            name, depth, body = None, 0, []
            continue
        if depth > 0:
            body.append(line)
        depth += opens - closes


def measure(body):
    """Returns (local bytes, ld/st.local count, instruction count, ld/st.param
    count) of a body."""
    local_bytes = 0
    local_accesses = 0
    param_accesses = 0
    instructions = 0
    statement = ""
    for line in body:
        # Call sequences are wrapped in braces of their own lines.
        if line in ("{", "}") or LABEL_RE.match(line):
            continue
        statement += " " + line
        while ";" in statement:
            text, statement = statement.split(";", 1)
            text = text.strip()
            depot = LOCAL_DEPOT_RE.match(text)
            if depot:
                local_bytes += int(depot.group(1))
            if not text or text.startswith("."):
                continue
            instructions += 1
            words = text.split()
            opcode = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
            if opcode.startswith(("ld.local", "st.local")):
                local_accesses += 1
            if opcode.startswith(("ld.param", "st.param")):
                param_accesses += 1
    return local_bytes, local_accesses, instructions, param_accesses


if __name__ == "__main__":
    # `python3 ptx_metrics.py k.ptx`: one line per kernel, for tests that
    # compare two compilers' PTX.
    import sys

    with open(sys.argv[1]) as ptx_file:
        for kernel, kernel_body in kernel_bodies(ptx_file.read()):
            local, local_ops, count, param_ops = measure(kernel_body)
            print(f"{kernel}: local bytes {local}, ld/st.local {local_ops}, instructions {count}, ld/st.param {param_ops}")
