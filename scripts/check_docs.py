#!/usr/bin/env python3
"""Keeps the README and the user guide (docs/guide/) true to the code.

Two checks, both run by the test suite (test/Docs/docs.test):

* **Pass options.** docs/guide/passes.md holds, between the BEGIN/END
  markers below, the reference of every ptxcc pass: its summary and each
  option with its default and meaning, as `ptxcc-opt --help` prints them
  (and `--help` prints the registry, `PASSES`, where each pass is declared
  once). A pass, an option, a default or a summary that differs fails the
  check; `--update` rewrites the block from `--help`.

* **Examples.** Every fenced block of IR, PTX, Rust or shell in the pages
  is run or compared, by the HTML comment on the line before it:

  ``<!-- example NAME: COMMAND -->``
      the block is written to NAME in an empty directory and COMMAND runs
      there (bash, `-o pipefail`; `ptxcc-opt` and LLVM 22's tools on PATH).
      It must succeed; ``<!-- example NAME fails: COMMAND -->`` must fail.
  ``<!-- run -->``
      the block is a shell script, run the same way (a quick start);
      ``<!-- run in the repository -->`` runs it in the repository's root.
  ``<!-- output -->``
      the block is an excerpt of the last example's output (standard
      output and standard error): each of its lines matches a whole
      output line, in order (not necessarily consecutive). Whitespace runs
      compare equal, a `// comment` after two spaces is not compared, a
      line `...` matches nothing and `...` inside a line matches any text.
  ``<!-- excerpt PATH -->``
      the block is an excerpt of the repository file PATH, by the same
      rules (in a Rust file, the examples of its doc comments count).
  ``<!-- not-run: WHY -->``
      the block is not checked (WHY says why; the tool output of a run on
      another machine, say).

  A block of IR, PTX or Rust without one of these fails the check.

Usage: check_docs.py --ptxcc-opt BIN [--update] [--passes-page FILE] [FILE.md...]
(default: README.md and docs/guide/*.md).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LLVM_BIN = "/usr/lib/llvm-22/bin"
PASSES_PAGE = ROOT / "docs/guide/passes.md"
BEGIN = "<!-- BEGIN options: generated from `ptxcc-opt --help` by `scripts/check_docs.py --update`; do not edit -->"
END = "<!-- END options -->"
# Fenced blocks that must carry a marker.
CHECKED_LANGUAGES = {"mlir", "llvm", "ptx", "rust", "sh", "cuda"}
MARKER = re.compile(r"^<!--\s*(example|output|excerpt|not-run|run)\b(.*?)-->\s*$")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
TIMEOUT = 600


def shown(path):
    """`path` relative to the repository where it is inside it."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


class Failure(Exception):
    """A check that failed, with where."""


def blocks(path):
    """(line, language, marker, marker argument, text) of each fenced block."""
    lines = path.read_text().split("\n")
    result = []
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        indent, language = fence.group(1), fence.group(2)
        start = index
        index += 1
        body = []
        while index < len(lines) and not lines[index].strip().startswith("```"):
            # A block inside a list item is indented as the item is.
            line = lines[index]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1
        previous = lines[start - 1] if start > 0 else ""
        marker = MARKER.match(previous.strip())
        kind, argument = (marker.group(1), marker.group(2).strip()) if marker else (None, "")
        result.append((start + 1, language, kind, argument, "\n".join(body) + "\n"))
    return result


def normalise(line):
    """A line as compared: no `// comment` after two spaces, whitespace runs
    as one space, no leading or trailing space."""
    line = re.split(r"\s{2,}//", line, maxsplit=1)[0]
    return " ".join(line.split())


def pattern(line):
    """The regular expression an excerpt line stands for."""
    parts = [re.escape(part) for part in normalise(line).split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def check_excerpt(excerpt, text, what):
    """Each line of `excerpt` matches a line of `text`, in order."""
    candidates = [normalise(line) for line in text.split("\n")]
    position = 0
    for line in excerpt.split("\n"):
        if normalise(line) in ("", "..."):
            continue
        wanted = pattern(line)
        while position < len(candidates) and not wanted.match(candidates[position]):
            position += 1
        if position == len(candidates):
            raise Failure(f"not found in {what} (in order): {line.strip()!r}")
        position += 1


def environment(ptxcc_opt):
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(ptxcc_opt).resolve().parent), LLVM_BIN, env.get("PATH", "")])
    env["PTXCC_ROOT"] = str(ROOT)
    return env


def run_shell(script, directory, env):
    completed = subprocess.run(
        ["bash", "-o", "pipefail", "-e", "-c", script],
        cwd=directory,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=TIMEOUT,
    )
    return completed.returncode, completed.stdout


def check_page(path, env, ptxcc_opt):
    """Runs and compares every marked block of one page; the failures."""
    failures = []
    last_output = None
    for line, language, kind, argument, text in blocks(path):
        where = f"{shown(path)}:{line}"
        try:
            if kind is None:
                if language in CHECKED_LANGUAGES:
                    raise Failure(f"a ```{language} block with no example/output/excerpt/run/not-run marker")
                continue
            if kind == "not-run":
                if not argument.lstrip(":").strip():
                    raise Failure("<!-- not-run: WHY --> needs its reason")
                continue
            if kind == "excerpt":
                source = ROOT / argument
                if not source.is_file():
                    raise Failure(f"excerpt of a file that does not exist: {argument}")
                content = source.read_text()
                if source.suffix == ".rs":
                    # A doc comment's example counts as code.
                    content = re.sub(r"(?m)^\s*//[!/] ?", "", content)
                check_excerpt(text, content, argument)
                continue
            if kind == "output":
                if last_output is None:
                    raise Failure("<!-- output --> with no example before it")
                check_excerpt(text, last_output, "the example's output")
                continue
            with tempfile.TemporaryDirectory(prefix="ptxcc-docs-") as directory:
                if kind == "run":
                    where_to_run = ROOT if argument == "in the repository" else directory
                    status, output = run_shell(text, where_to_run, env)
                    command = "the block"
                    fails = False
                else:
                    match = re.match(r"^(\S+)(\s+fails)?\s*:\s*(.+)$", argument)
                    if not match:
                        raise Failure(f"cannot read the example marker {argument!r} (want 'NAME: COMMAND')")
                    name, fails, command = match.group(1), bool(match.group(2)), match.group(3)
                    (Path(directory) / name).write_text(text)
                    status, output = run_shell(command, directory, env)
            last_output = output
            if fails and status == 0:
                raise Failure(f"`{command}` was to fail and succeeded:\n{output}")
            if not fails and status != 0:
                raise Failure(f"`{command}` failed with status {status}:\n{output}")
        except Failure as failure:
            failures.append(f"{where}: {failure}")
        except subprocess.TimeoutExpired:
            failures.append(f"{where}: timed out after {TIMEOUT} s")
    return failures


def parse_help(ptxcc_opt):
    """[(pass, summary, [(option, meaning, default)])] from `--help`."""
    text = subprocess.run([ptxcc_opt, "--help"], capture_output=True, text=True, check=True).stdout
    section = text.split("\nptxcc passes (", 1)[1].split("\n\n", 1)[0]
    passes = []
    for line in section.split("\n")[1:]:
        if re.match(r"^  \S", line):
            name, summary = line.strip().split(None, 1)
            passes.append((name, summary.strip(), []))
        elif re.match(r"^      \S", line):
            name, rest = line.strip().split(None, 1)
            match = re.match(r"^(.*) \(default: (.*)\)$", rest.strip())
            if not match:
                raise Failure(f"--help line without a default: {line!r}")
            passes[-1][2].append((name, match.group(1), match.group(2)))
    return passes


def options_reference(ptxcc_opt):
    """The generated block of docs/guide/passes.md."""
    out = [BEGIN, ""]
    for name, summary, options in parse_help(ptxcc_opt):
        out += [f"### `{name}`", "", summary + ".", ""]
        if options:
            out += ["| option | default | meaning |", "|---|---|---|"]
            for option, meaning, default in options:
                out.append(f"| `{option}` | `{default}` | {meaning.replace('|', '&#124;')} |")
            out.append("")
    out.append(END)
    return "\n".join(out)


def check_options(ptxcc_opt, update, page):
    text = page.read_text()
    if BEGIN not in text or END not in text:
        return [f"{shown(page)}: no generated options block ({BEGIN} ... {END})"]
    before, rest = text.split(BEGIN, 1)
    current, after = rest.split(END, 1)
    wanted = options_reference(ptxcc_opt)
    if BEGIN + current + END == wanted:
        return []
    if update:
        page.write_text(before + wanted + after)
        print(f"check_docs: rewrote the options of {shown(page)}")
        return []
    return [
        f"{shown(page)}: the pass options differ from `ptxcc-opt --help` "
        "(a pass, option, default or summary changed); run scripts/check_docs.py --update"
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptxcc-opt", required=True, help="the driver to run the examples with")
    parser.add_argument("--update", action="store_true", help="rewrite the generated options block")
    parser.add_argument("--passes-page", type=Path, default=PASSES_PAGE,
                        help="the page with the generated options (default: docs/guide/passes.md)")
    parser.add_argument("pages", nargs="*", help="pages to check (default: README.md, docs/guide/*.md)")
    args = parser.parse_args()
    ptxcc_opt = shutil.which(args.ptxcc_opt) or args.ptxcc_opt
    pages = [Path(p).resolve() for p in args.pages] or [ROOT / "README.md", *sorted((ROOT / "docs/guide").glob("*.md"))]
    env = environment(ptxcc_opt)
    failures = check_options(ptxcc_opt, args.update, args.passes_page)
    examples = 0
    for page in pages:
        failures += check_page(page, env, ptxcc_opt)
        examples += sum(1 for block in blocks(page) if block[2] in ("example", "run", "output", "excerpt"))
    for failure in failures:
        print(f"check_docs: {failure}", file=sys.stderr)
    print(f"check_docs: {len(pages)} pages, {examples} checked blocks, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
