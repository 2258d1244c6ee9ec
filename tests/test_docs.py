"""The examples of docs/static-stack.md and docs/rules.md, run: the shown commands give the
shown output, and the routines a rule asks for are declared as the page says."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def blocks(text, lang):
    """The fenced blocks of a page tagged `lang` ('' for untagged ones)."""
    out, current, tag = [], None, None
    for line in text.splitlines():
        if line.startswith("```"):
            if current is None:
                current, tag = [], line[3:].strip()
            else:
                if tag == lang:
                    out.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return out


def run_session(text, source_marker, name, tmp_path):
    """Save the page's C block containing source_marker as `name`, run the commands of its
    first `$ adgen` block there and compare with the output shown; the commands run."""
    source = next(b for b in blocks(text, "c") if source_marker in b)
    (tmp_path / name).write_text(source + "\n")
    session = next(b for b in blocks(text, "") if b.startswith("$ adgen"))
    commands = re.findall(r"^\$ (.*)$", session, re.M)
    outputs = re.split(r"^\$ .*\n?", session, flags=re.M)[1:]
    for cmd, expected in zip(commands, outputs):
        argv = [sys.executable, "-m", "adgen"] + \
            [a.strip('"') for a in re.findall(r'"[^"]*"|\S+', cmd)][1:]
        r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True)
        assert (r.stdout + r.stderr).strip() == expected.strip(), cmd
    return len(commands)


def test_static_stack_page(tmp_path):
    text = (DOCS / "static-stack.md").read_text()
    assert run_session(text, "void chain(", "chain.c", tmp_path) == 2


def test_directives_page(tmp_path):
    text = (DOCS / "directives.md").read_text()
    assert run_session(text, "#pragma adgen", "model.c", tmp_path) == 1


def test_rules_page(tmp_path):
    text = (DOCS / "rules.md").read_text()
    rules = next(b for b in blocks(text, "") if "solve(x)/(A b)" in b)
    shipped = (ROOT / "testsuite" / "c" / "rules" / "solve.rules").read_text()
    for line in rules.splitlines():
        if line.strip() and not line.startswith("#"):
            assert line in shipped.splitlines(), line
    protos = next(b for b in blocks(text, "c") if "solve_b(" in b)
    for mode, name in (("--reverse", "solve_b"), ("--forward", "solve_d")):
        out = tmp_path / f"{name}.c"
        r = subprocess.run([sys.executable, "-m", "adgen", mode,
                            str(ROOT / "testsuite" / "c" / "user_rule_solve.c"),
                            "--head", "model(out)/(p)", "--rules",
                            str(ROOT / "testsuite" / "c" / "rules" / "solve.rules"),
                            "-o", str(out)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        declared = re.search(r"^void " + name + r"\(.*?\);", out.read_text(), re.M | re.S)
        shown = re.search(r"^void " + name + r"\(.*?\);", protos, re.M | re.S)
        assert declared and shown
        assert " ".join(declared.group(0).split()) == " ".join(shown.group(0).split())
