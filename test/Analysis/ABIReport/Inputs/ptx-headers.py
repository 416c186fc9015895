"""Prints the header of every function definition in PTX on stdin, as
ptxcc-abi-report prints it: comments and trailing blanks removed, one
declaration per line, `.noreturn` kept; forward declarations and bodies
dropped."""
import sys

lines = [line.split("//")[0].rstrip() for line in sys.stdin]
i = 0
while i < len(lines):
    line = lines[i]
    is_head = line.startswith((".visible .", ".weak .", ".entry ", ".func "))
    if not (is_head and (line.endswith("(") or line.endswith("()"))):
        i += 1
        continue
    print(line)
    if line.endswith("("):
        while lines[i] != ")":
            i += 1
            print(lines[i])
    if i + 1 < len(lines) and lines[i + 1] == ".noreturn":
        i += 1
        print(lines[i])
    i += 1
