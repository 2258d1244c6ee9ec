"""python -m tests.fuzz.mutate --count N --seed S [--keep DIR]

Malformed and unusual input: the programs of the testsuite (C and Fortran) with one to three
random edits each (a line deleted, duplicated or swapped with the next, a token deleted or
replaced by another name or a stray token), given to adgen in both modes. Whatever the
edit, adgen must either write C that compiles (when the edited program still compiles) or
stop with an error at a position, `FILE:LINE:COL: error: ...`; an internal error, an error
that names a position badly, a hang or output gcc rejects is a finding. Findings are
printed one per line (and the edited program kept in DIR with --keep); exit status 1 if
there are any.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "testsuite" / "c").glob("*.c")) + \
    sorted((ROOT / "testsuite" / "fortran").glob("*.f90"))
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+\.?\d*(?:[eEdD][-+]?\d+)?|\S")
_STRAY = ("0", "1", "(", ")", ",", "*", "-", "+", "2.5", ":", "x", "n")
_COMMENT = ("!", "/*", "*", "//")


def mutate(text: str, rng: random.Random) -> str:
    """text with one random edit of a line that is not a comment."""
    lines = text.split("\n")
    code = [i for i, line in enumerate(lines)
            if line.strip() and not line.lstrip().startswith(_COMMENT)]
    if not code:
        return text
    i = rng.choice(code)
    kind = rng.randrange(6)
    if kind == 0:
        del lines[i]
    elif kind == 1 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 2:
        lines.insert(rng.choice(code), lines[i])
    else:
        tokens = list(_TOKEN.finditer(lines[i]))
        if not tokens:
            return text
        t = rng.choice(tokens)
        new = "" if kind == 3 else rng.choice(re.findall(r"\b[a-z_]\w*\b", text)) \
            if kind == 4 else rng.choice(_STRAY)
        lines[i] = lines[i][:t.start()] + new + lines[i][t.end():]
    return "\n".join(lines)


class _Timeout(Exception):
    pass


def _alarm(*_):
    raise _Timeout()


def _include_dirs(original: Path) -> list:
    return [str(original.parent), str(original.parent / "include")]


def _compiles(cmd, cwd) -> bool:
    return subprocess.run(cmd, cwd=cwd, capture_output=True).returncode == 0


def _primal_compiles(source: Path, original: Path, scratch: str) -> bool:
    """Whether the edited program compiles as adgen reads it (C: with adgen's headers and
    __adgen__ defined)."""
    if source.suffix == ".c":
        from adgen.frontend.preprocess import gcc_flags
        cmd = ["gcc", "-fsyntax-only", *gcc_flags(_include_dirs(original)), str(source)]
    elif shutil.which("gfortran"):
        cmd = ["gfortran", "-fsyntax-only", "-J", scratch, str(source)]
    else:
        return False
    return _compiles(cmd, scratch)


def check(source: Path, original: Path, head: str, tally=None) -> str | None:
    """What is wrong with adgen's answer to the edited program source (a copy of
    original), or None. tally (a dict) counts the answers: refused, compiled (output of an
    edited program that compiles, compiled too)."""
    tally = {} if tally is None else tally
    from adgen.driver import Options, generate
    from adgen.errors import AdgenError
    compiles = None
    for mode in ("reverse", "forward"):
        opts = Options(mode=mode, heads=[head], include_dirs=_include_dirs(original))
        opts.output_stem = "out"
        signal.alarm(120)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                result = generate([str(source)], opts)
        except AdgenError as exc:
            if exc.loc is not None and not re.match(r"^\S+:\d+:\d+: error: ", str(exc)):
                return f"{mode}: an error with a bad position: {str(exc)[:200]}"
            tally["refused"] = tally.get("refused", 0) + 1
            continue
        except _Timeout:
            return f"{mode}: no answer in 120 s"
        except RecursionError:
            continue        # the command line reports it (too deeply nested)
        except Exception as exc:
            where = traceback.extract_tb(exc.__traceback__)[-1]
            return (f"{mode}: internal error {type(exc).__name__}: {str(exc)[:200]} "
                    f"(at {Path(where.filename).name}:{where.lineno})")
        finally:
            signal.alarm(0)
        with tempfile.TemporaryDirectory() as scratch:
            if compiles is None:
                compiles = _primal_compiles(source, original, scratch)
            if not compiles:
                continue
            (Path(scratch) / "out.c").write_text(result.text)
            if result.header is not None:
                (Path(scratch) / "out.h").write_text(result.header)
            cmd = ["gcc", "-std=c99", "-fsyntax-only"] + \
                [f"-I{d}" for d in _include_dirs(original)] + ["out.c"]
            if not _compiles(cmd, scratch):
                return f"{mode}: the output does not compile (the edited program does)"
            tally["compiled"] = tally.get("compiled", 0) + 1
    return None


def run(count: int, seed: int, keep: Path | None = None, out=sys.stdout, tally=None) -> int:
    """Checks count edited programs; returns the number of findings (tally: see check)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 30000))
    signal.signal(signal.SIGALRM, _alarm)
    rng = random.Random(seed)
    findings = 0
    with tempfile.TemporaryDirectory() as work:
        for k in range(count):
            original = rng.choice(SOURCES)
            text = original.read_text()
            head = re.search(r"head:\s*(.+)", text)
            edited = text
            for _ in range(rng.randint(1, 3)):
                edited = mutate(edited, rng)
            if head is None or edited == text:
                continue
            source = Path(work) / f"mutant_{seed}_{k}{original.suffix}"
            source.write_text(edited)
            problem = check(source, original, head.group(1).strip(), tally)
            if problem is not None:
                findings += 1
                print(f"{source.name} (from {original.name}): {problem}", file=out)
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(source, keep / source.name)
    return findings


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz.mutate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, default=None)
    args = ap.parse_args(argv)
    tally = {}
    findings = run(args.count, args.seed, args.keep, tally=tally)
    print(f"{args.count} edited programs (seed {args.seed}): {findings} findings; answers "
          f"refused {tally.get('refused', 0)}, compiled {tally.get('compiled', 0)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
