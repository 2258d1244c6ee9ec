"""Generated code of every test program, kept and compared: the check of a refactor, whose
output must stay byte-identical.

    python tests/golden.py save DIR        # every program, every mode: outputs into DIR
    python tests/golden.py compare DIR     # the same anew, compared with DIR byte by byte

For each head of each program under testsuite/ (C, Fortran, their regress/), each mode is
run as the harness runs it (its flags, `--size` where the program says `sizes: give`):
--forward, --forward --vector, --reverse on the heap stack, --reverse on the static stack,
--reverse --store-all, and the --explain and --stack-report texts. What is kept of each run
is the files it wrote (the C, and for Fortran the interface modules), its standard output
and standard error, and its exit status; the checkout's path and the scratch directory's
are replaced by placeholders, so that two checkouts compare. Runs go in-process, on every
core."""
import argparse
import contextlib
import io
import os
import shutil
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# this checkout's adgen, whatever another installation says
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
import harness  # noqa: E402

# (name, adgen options); reverse runs get `-o NAME_b.c`, forward ones `NAME_d.c`
MODES = [
    ("forward", ["--forward"]),
    ("vector", ["--forward", "--vector"]),
    ("reverse", ["--reverse"]),
    ("static", ["--reverse", "--stack=static", "--stack-size",
                str(harness.STATIC_STACK_BYTES)]),
    ("store_all", ["--reverse", "--store-all"]),
    ("explain", ["--reverse", "--explain", "--no-output"]),
    ("stack_report", ["--reverse", "--stack-report", "--no-output"]),
]


def programs():
    out = []
    for d in ("c", "c/regress", "fortran", "fortran/regress"):
        for p in sorted((ROOT / "testsuite" / d).iterdir()):
            if p.is_file() and (p.suffix == ".c" or harness.is_fortran(p)):
                out.append(p)
    return out


def _sizes(spec, head, source):
    """The harness's --size options (only for `sizes: give`; a Fortran plan needs the
    primal built by gfortran)."""
    if spec.sizes == "infer":
        return []
    if harness.is_fortran(source):
        work = Path(tempfile.mkdtemp(prefix="golden-primal-"))
        try:
            fb = harness.build_fortran_primal(spec, source, work,
                                              harness.resolve_flags(spec, source))
            return harness.size_options(harness.make_fortran_plan(spec, head, fb))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return harness.size_options(harness.make_plan(spec, head, source.read_text()))


def _run_cli(argv, cwd):
    """adgen's command line in this process: (status, stdout, stderr)."""
    from adgen import cli
    assert Path(cli.__file__).resolve().is_relative_to(ROOT), cli.__file__
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(argv)
            except SystemExit as exc:
                status = exc.code
    finally:
        os.chdir(old)
    return status, out.getvalue(), err.getvalue()


def generate(source: Path) -> dict:
    """{relative name: bytes} of every run of one program."""
    rel = source.relative_to(ROOT / "testsuite")
    spec = harness._read_spec(source)
    if spec.expect_error is not None:
        heads = [None]
    else:
        heads = spec.heads
    flags = harness.resolve_flags(spec, source) + harness.adgen_only_flags(spec, source)
    sources = [str(s) for s in harness.fortran_sources(spec, source)] \
        if harness.is_fortran(source) else [str(source)]
    results = {}
    for i, head in enumerate(heads):
        try:
            sizes = _sizes(spec, head, source) if head is not None else []
        except Exception as exc:       # the harness could not plan it: kept as such
            sizes, results[f"{rel}/{i}.plan"] = [], repr(exc).encode()
        head_opts = ["--head", head.text] if head is not None else \
            [x for h in spec.heads for x in ("--head", h.text)]
        for mode, opts in MODES:
            with tempfile.TemporaryDirectory(prefix="golden-") as scratch:
                suffix = "d" if "--forward" in opts else "b"
                argv = opts + sources + head_opts + flags + sizes
                if "--no-output" not in opts:
                    argv += ["-o", f"out_{suffix}.c"]
                status, out, err = _run_cli(argv, scratch)
                key = f"{rel}/{i}_{mode}"
                text = f"exit {status}\n--- stdout\n{out}\n--- stderr\n{err}"
                results[key + ".log"] = _placeholders(text.encode(), scratch)
                for f in sorted(Path(scratch).rglob("*")):
                    if f.is_file():
                        results[f"{key}/{f.relative_to(scratch)}"] = \
                            _placeholders(f.read_bytes(), scratch)
    return results


def _placeholders(data: bytes, scratch: str) -> bytes:
    for path, name in ((os.path.realpath(scratch), b"<SCRATCH>"), (scratch, b"<SCRATCH>"),
                       (str(ROOT), b"<ROOT>")):
        data = data.replace(path.encode(), name)
    return data


def _generate_safe(source):
    try:
        return generate(source)
    except BaseException as exc:       # a crash of the tool is an output too
        import traceback
        rel = source.relative_to(ROOT / "testsuite")
        return {f"{rel}/crash": traceback.format_exc().encode() + repr(exc).encode()}


def generate_all(jobs=None) -> dict:
    out = {}
    with ProcessPoolExecutor(max_workers=jobs or os.cpu_count()) as pool:
        for res in pool.map(_generate_safe, programs(), chunksize=1):
            out.update(res)
    return out


def save(directory: Path, outputs: dict) -> None:
    if directory.exists():
        shutil.rmtree(directory)
    for name, data in outputs.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def compare(directory: Path, outputs: dict) -> list:
    kept = {str(p.relative_to(directory)): p.read_bytes()
            for p in directory.rglob("*") if p.is_file()}
    diffs = []
    for name in sorted(set(kept) | set(outputs)):
        if name not in outputs:
            diffs.append(f"missing now: {name}")
        elif name not in kept:
            diffs.append(f"new: {name}")
        elif kept[name] != outputs[name]:
            diffs.append(f"differs: {name}")
    return diffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("save", "compare"))
    ap.add_argument("directory", type=Path)
    ap.add_argument("-j", "--jobs", type=int, default=None)
    args = ap.parse_args(argv)
    outputs = generate_all(args.jobs)
    if args.action == "save":
        save(args.directory, outputs)
        print(f"golden: {len(outputs)} files kept in {args.directory}")
        return 0
    diffs = compare(args.directory, outputs)
    for d in diffs:
        print(d)
    print(f"golden: {len(outputs)} files compared, {len(diffs)} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
