"""Random programs (tests/fuzz): the generators on their own, and short fuzz runs of adgen
on C and on Fortran programs; edited (malformed) testsuite programs (tests/fuzz/mutate.py).

The fuzz runs are marked `fuzz` (deselect with `-m "not fuzz"`).  ADGEN_FUZZ_COUNT,
ADGEN_FUZZ_SEED, ADGEN_FUZZ_INFER (share of programs where adgen must infer the array
lengths) and ADGEN_FUZZ_SECONDS (start no check after that) change the C run,
ADGEN_FUZZ_FORTRAN_COUNT, ADGEN_FUZZ_FORTRAN_SEED and ADGEN_FUZZ_FORTRAN_SECONDS the
Fortran one (skipped without gfortran), ADGEN_FUZZ_TRUST_COUNT and ADGEN_FUZZ_TRUST_SEED
the programs of tests/fuzz/trust.py, ADGEN_FUZZ_MPI_COUNT and ADGEN_FUZZ_MPI_SEED those
of tests/fuzz/distributed.py (skipped without Open MPI); a failure prints how to
reproduce and minimize it.
"""

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fuzz import (fortran_generator, fortran_minimize, generator, minimize, mutate,  # noqa: E402
                        runner, selfcheck)

FUZZ_SEED = int(os.environ.get("ADGEN_FUZZ_SEED", "1000"))
FUZZ_COUNT = int(os.environ.get("ADGEN_FUZZ_COUNT", "200"))
FUZZ_INFER = os.environ.get("ADGEN_FUZZ_INFER", "0.25")  # share of `sizes: infer` programs
FUZZ_BUDGET = float(os.environ.get("ADGEN_FUZZ_SECONDS", "225"))  # safety net: ~4 min
FORTRAN_SEED = int(os.environ.get("ADGEN_FUZZ_FORTRAN_SEED", "2000"))
FORTRAN_COUNT = int(os.environ.get("ADGEN_FUZZ_FORTRAN_COUNT", "40"))
FORTRAN_BUDGET = float(os.environ.get("ADGEN_FUZZ_FORTRAN_SECONDS", "100"))
TRUST_SEED = int(os.environ.get("ADGEN_FUZZ_TRUST_SEED", "3000"))
TRUST_COUNT = int(os.environ.get("ADGEN_FUZZ_TRUST_COUNT", "40"))
MPI_SEED = int(os.environ.get("ADGEN_FUZZ_MPI_SEED", "7000"))
MPI_COUNT = int(os.environ.get("ADGEN_FUZZ_MPI_COUNT", "12"))


@pytest.mark.parametrize("generate", [generator.generate, fortran_generator.generate],
                         ids=["c", "fortran"])
def test_generator_is_deterministic(generate):
    for seed in (0, 1, 17, 12345):
        assert generate(seed) == generate(seed)
    assert len({generate(s) for s in range(30)}) == 30


def _compile(args):
    seed, tmp = args
    src = tmp / f"p{seed}.c"
    src.write_text(generator.generate(seed))
    try:
        selfcheck.compile_only(src, "-O0")
        selfcheck.compile_only(src, "-O3")
        if seed % 4 == 0:  # a quarter also runs under ASan/UBSan with finite outputs
            selfcheck.run_driver(src, tmp)
    except AssertionError as exc:
        return f"seed {seed}: {exc}"
    return None


def test_programs_compile_and_run_cleanly(tmp_path):
    """gcc -std=c99 -Wall -Wextra -Werror at -O0 and -O3; sanitizers; finite outputs."""
    with ThreadPoolExecutor(2) as ex:
        errors = [e for e in ex.map(_compile, [(s, tmp_path) for s in range(60)]) if e]
    assert not errors, "\n\n".join(errors[:3])


FEATURES = {
    "binomial checkpointing": r"#pragma adgen binomial_ckp\(",
    "fixed-point loop": r"#pragma adgen fp_loop",
    "call in joint mode by directive": r"#pragma adgen checkpoint$",
    "call in split mode by directive": r"#pragma adgen nocheckpoint$",
    "while loop with data-dependent exit": r"while \(k\d+ < \w+ && ",
    "do-while loop": r"\} while \(",
    "early return": r"^ {8,}return ",
    "switch": r"\bswitch \(",
    "switch case falling through": r"/\* falls through \*/",
    "switch group of several labels": r"case (1|3):\n\s*case (1|3):|case 0:\n\s*case 2:",
    "default group": r"\bdefault:",
    "assignment in a test": r"\(w\d+ = ",
    "break": r"\bbreak;",
    "continue": r"\bcontinue;",
    "helper call": r"\bfz_f\d\(",
    "offset pointer argument": r"fz_f\d\([^;]*(&\w+\[|\b\w+ \+ )",
    "malloc/free": r"free\(buf\d+\)",
    "local pointer alias": r"double \*p\d+ = ",
    "fixed-size local array": r"double t\d+\[\d+\]",
    "ternary": r"\?",
    "step 2 loop": r"\+= 2\)",
    "downward loop": r"(--|-= \d)\)",
    "<= bound": r"<= \w+ - 1;",
    "*=": r"\*= ",
    "/=": r"/= ",
    "++ on a counter": r"cnt\d+(\+\+|--)",
    "returned double": r"^double fz_head",
    "by-value double": r"double a\b",
    "in/out array": r"head: fz_head\([^)]*\bz\b[^)]*\)/\([^)]*\bz\b",
    "pow": r"\bpow\(",
    "atan2": r"\batan2\(",
    "hypot": r"\bhypot\(",
    "fmin/fmax": r"\bfm(in|ax)\(",
    "fabs": r"\bfabs\(",
    "exp": r"\bexp\(",
    "log": r"\blog\(",
    "sqrt": r"\bsqrt\(",
    "CBLAS kernel call": r"cblas_d\w+\(\d",
    "Fortran BLAS kernel call from C": r"\bd(dot|axpy|scal|copy)_\(&",
    "array field of a local struct": r"\bfz_[wv]\.\w+\[",
    "whole struct copied": r"\bfz_v = fz_w;",
    "array reached through a global pointer": r"^    fz_gp = \w+;",
    "local kept in a static global": r"^static double fz_g\d+_\w+(\[\d+\])?;$",
    "buffers swapped through pointers": r"^        fz_pa = fz_pb;$",
    "malloc'd buffers swapped through pointers": r"^    double \*fz_pa = malloc\(",
    "swapped buffers in a checkpointed loop": r"binomial_ckp.*\n.*fz_s = 0",
    "array passed in a struct handle": r"\bfz_c?vec_of\(",
    "handle's pointer walked in the callee": r"^    \w+_h\.v = \w+_h\.v \+ 1;$",
    "head handle by pointer": r"\bfz_hh \*fz_hd\b",
    "head handle by value": r"\bfz_hh fz_hd\b",
    "nested head handle": r"\bfz_hd(->|\.)sub->",
    "goto out of a loop": r"\bgoto done\d+;",
    "loop under #pragma adgen independent": r"#pragma adgen independent",
    "element relaxed toward others of its array": r"for \((int )?[jlq] = [ijl] \+ 1; "
                                                  r"[jlq] < \d+; [jlq]\+\+\) \{\n\s*(\w+)\[[ijl]\] = "
                                                  r"0\.5 \* \2\[[ijl]\] \+ 0\.5 \*",
    "goto to the end of a loop body": r"\bgoto next\d+;",
}


def _rare_constructs(generate, features: dict) -> list:
    """The constructs of features found in fewer than 5 of 150 programs."""
    texts = [generate(s) for s in range(150)]
    return [name for name, pat in features.items()
            if sum(bool(re.search(pat, t, re.M)) for t in texts) < 5]


def test_generator_covers_the_constructs():
    missing = _rare_constructs(generator.generate, FEATURES)
    assert not missing, f"constructs (almost) never generated: {missing}"


def test_minimizer_keeps_programs_valid(tmp_path):
    """Reduce a program to 'still has a while loop and a helper call' with a cheap
    predicate; the result must be small and still compile cleanly."""
    src = tmp_path / "m.c"

    def still(text):
        if "while (" not in text or "fz_f" not in text.split("*/", 2)[-1]:
            return False
        src.write_text(text)
        r = subprocess.run(["gcc", *selfcheck.WARN, "-fsyntax-only", str(src)], capture_output=True)
        return r.returncode == 0

    seed = next(s for s in range(100) if still(generator.generate(s)))
    prog = generator.generate_program(seed)
    small = minimize.render(minimize.minimize(prog, still, max_tests=250, max_seconds=60))
    assert still(small)
    assert small.count("\n") < generator.generate(seed).count("\n")
    assert small.count(";") < 40, small
    src.write_text(small)
    selfcheck.check_self(src, tmp_path / "run")


def _fuzz_run(args, capsys):
    """python -m tests.fuzz ARGS; fails the test with the failing seeds."""
    if not runner.harness_available():
        pytest.skip("tests/harness.py is not there yet")
    from tests.fuzz.__main__ import main
    status = main(args)
    out = capsys.readouterr().out
    print(out)
    if status:
        lang = args[args.index("--lang"):args.index("--lang") + 2] if "--lang" in args else []
        fails = [l for l in out.splitlines() if l.startswith(("FAIL", "  "))]
        pytest.fail(f"{len([l for l in fails if l.startswith('FAIL')])} fuzz failures "
                    f"(reproduce and minimize one with: python -m tests.fuzz {' '.join(lang)} "
                    f"--count 1 --seed SEED --keep DIR):\n" + "\n".join(fails[:40]), pytrace=False)


@pytest.mark.fuzz
def test_fuzz_adgen(tmp_path, capsys):
    """A fixed set of random programs through adgen and the harness."""
    _fuzz_run(["--count", str(FUZZ_COUNT), "--seed", str(FUZZ_SEED), "--no-minimize",
               "--workdir", str(tmp_path), "--max-seconds", str(FUZZ_BUDGET),
               "--infer-share", FUZZ_INFER], capsys)


@pytest.mark.fuzz
def test_fuzz_adgen_trust_shapes(tmp_path, capsys):
    """Random programs of the shapes that once gave silently wrong derivatives
    (tests/fuzz/trust.py: long growing or converging recurrences, clamps at singular points,
    f2c offsets, redeclared prototypes, statics without state)."""
    _fuzz_run(["--lang", "trust", "--count", str(TRUST_COUNT), "--seed", str(TRUST_SEED),
               "--no-minimize", "--workdir", str(tmp_path), "--max-seconds", "120"], capsys)


@pytest.mark.fuzz
def test_fuzz_adgen_distributed(tmp_path, capsys):
    """Random MPI programs (tests/fuzz/distributed.py: halo exchanges of every kind adgen
    differentiates, blocking and not, in random orders, and reductions over the ranks) on 2
    ranks: adjoint against central differences, the tangents against the adjoint."""
    sys.path.insert(0, str(ROOT / "tests"))
    import harness
    if harness.mpi_missing() is not None:
        pytest.skip(f"{harness.mpi_missing()}: the MPI programs are not built or run")
    _fuzz_run(["--lang", "mpi", "--count", str(MPI_COUNT), "--seed", str(MPI_SEED),
               "--no-minimize", "--workdir", str(tmp_path), "--max-seconds", "120"], capsys)


def test_fuzz_worker_survives_timeouts_and_crashes(tmp_path):
    """A check that runs past its timeout, or a worker that dies, is a failure of that check
    only: the next check gets a fresh worker and passes."""
    if not runner.harness_available():
        pytest.skip("tests/harness.py is not there yet")
    src = tmp_path / "t.c"
    src.write_text(generator.generate(FUZZ_SEED, generator.Config()))
    worker = runner.Worker()
    assert worker.check(src, tmp_path / "w0", "harness", timeout=0.01)["kinds"] == ["timeout"]
    assert not worker.alive()
    worker = runner.Worker()
    os.kill(worker.proc.pid, 9)
    crashed = worker.check(src, tmp_path / "w1", "harness", timeout=60)
    assert crashed["kinds"] == ["checker-crash"] and not worker.alive()
    runner.workers.worker = worker             # the dead one: check() replaces it
    assert runner.check(src, tmp_path / "w2", "harness", timeout=300)["status"] == "pass"
    assert runner.workers.worker is not worker


def test_trust_shapes_are_all_generated():
    from tests.fuzz import trust
    texts = [trust.generate(s) for s in range(60)]
    assert len(set(texts)) == 60
    for needle in ("+= ", "r[i] -= ", "fmax(len", "? len :", "--fvec;", "double pow(double",
                   "static int fz_ready", "fz_calls++", "hypot(v[0], v[1])", "arg v: double[",
                   "sizes: give"):
        assert any(needle in t for t in texts), needle


# ------------------------------------------------------------------ Fortran

def _need_gfortran():
    if shutil.which("gfortran") is None:
        pytest.skip("the Fortran programs need gfortran, which is not installed")


def _compile_fortran(args):
    seed, tmp = args
    src = tmp / f"p{seed}.f90"
    src.write_text(fortran_generator.generate(seed))
    try:
        selfcheck.compile_fortran(src, tmp / f"mod{seed}")
    except AssertionError as exc:
        return f"seed {seed}: {exc}"
    return None


def test_fortran_programs_compile_cleanly(tmp_path):
    """gfortran -std=f2008 -Wall -Werror, and no definite use of an unset variable at -O2."""
    _need_gfortran()
    with ThreadPoolExecutor(2) as ex:
        errors = [e for e in ex.map(_compile_fortran, [(s, tmp_path) for s in range(60)]) if e]
    assert not errors, "\n\n".join(errors[:3])


def test_fortran_programs_run_in_bounds(tmp_path):
    """The primal, built with -fcheck=all (indices, sections), runs and gives finite values
    and non-zero finite-difference Jacobians (the harness without adgen)."""
    _need_gfortran()
    from tests.fuzz.__main__ import main
    assert main(["--lang", "fortran", "--mode", "primal", "--count", "12", "--seed", "0",
                 "--no-minimize", "--workdir", str(tmp_path)]) == 0


FORTRAN_FEATURES = {
    "BINOMIAL-CKP": r"!\$AD BINOMIAL-CKP ",
    "FP-LOOP": r"!\$AD FP-LOOP$",
    "allocatable local array": r"if \(\.not\. allocated\(\w+\)\) allocate\(",
    "allocatable local array allocated by an assignment":
        r"allocatable :: (\w+)\([:, ]+\)$(?![\s\S]*\ballocate\(\1\()",
    "NOCHECKPOINT": r"!\$AD NOCHECKPOINT$",
    "module procedure subroutine": r"^  subroutine fz_s\d",
    "module procedure function": r"^  function fz_f\d\(.*\) result\(r\)",
    "head function": r"^function fz_head",
    "intent(out) array": r"intent\(out\) :: \w+\(",
    "intent(inout) array": r"intent\(inout\) :: \w+\(",
    "intent(out) scalar": r"intent\(out\) :: \w+$",
    "intent(inout) scalar": r"intent\(inout\) :: \w+$",
    "lower bound 0 or -1": r"\w\((0|-1):",
    "2-D array": r"\w+\(n, nc\)",
    "DO with a step": r"^\s*(\w+: )?do \w+ = .*, (2|-1)$",
    "data-dependent trip count": r"kk\d+ = min\(",
    "DO WHILE": r"^\s*do while",
    "EXIT": r"\bexit\b",
    "CYCLE": r"\bcycle\b",
    "named loop exit/cycle": r"\b(exit|cycle) outer\d",
    "GOTO out of a loop or to the end of its body": r"\bgoto 9\d\d$",
    "ELSE IF": r"else if \(",
    "SELECT CASE range": r"case \(\d*:\d*\)",
    "CASE DEFAULT": r"case default",
    "array section": r"\w\([^()]*\w:[^()]*\) = ",
    "WHERE / ELSEWHERE": r"^\s*elsewhere",
    "sum": r"\bsum\(", "dot_product": r"\bdot_product\(", "maxval/minval": r"\b(max|min)val\(",
    "product": r"\bproduct\(",
    "sqrt": r"\bsqrt\(", "log": r"\blog\(", "exp": r"\bexp\(", "atan2": r"\batan2\(",
    "asin/acos": r"\ba(sin|cos)\(", "integer power": r"\*\* [23]\b", "real power": r"\*\* \(?\d",
    "call": r"\bcall fz_s\d\(", "function reference": r"= .*\bfz_f\d\(",
    "array expression as an argument":
        r"(call |= )(fz_|fz_w%b_)s\d\(.*\b(tanh|sin|cos|exp|sqrt|log)\(\w+\(",
    "module variable read by a helper": r"^    .*\bfz_state\b",
    "index arithmetic": r"\(n \+ \d - \w+\)|mod\(\w+, ",
    "continuation line": r"&$",
    "OPTIONAL dummy": r"intent\((in|inout)\), optional ::",
    "optional argument given (by keyword)": r"\b(gam|w)=",
    "cshift": r"\bcshift\(", "eoshift": r"\beoshift\(", "maxloc/minloc": r"\b(max|min)loc\(", "merge": r"\bmerge\(",
    "sum with MASK": r"\bsum\(.*, mask=", "sum of a pack": r"\bsum\(pack\(", "matmul": r"\bmatmul\(\w+, ",
    "matmul of a transpose": r"\bmatmul\(transpose\(", "array constructor in an expression": r"[(*+-] \[",
    "DO CONCURRENT": r"^\s*do concurrent \(\w+ = [^,]*\)$",
    "DO CONCURRENT, two indices": r"^\s*do concurrent \(\w+ = [^,]*, \w+ = ",
    "DO CONCURRENT with a mask": r"^\s*do concurrent \(.*, (mod\(|\w+ /= )",
    "reduction along a dimension": r"\b(sum|maxval|minval|product)\(.*, (dim=)?[12]\)",
    "cshift of a matrix": r"\bcshift\(\w+, -?\d+, (dim=)?[12]\)",
    "spread": r"\bspread\(\w+\(",
    "reshape": r"\breshape\(\w+, \[",
    "BLOCK hiding a name": r"^\s*block\n\s*real\(8\) :: (?!bk)\w+$",
    "ASSOCIATE": r"^\s*associate \(as\d+ => \w+, av\d+ => ",
    "SAVEd local": r"^\s*real\(8\), save :: \w+$",
    "procedure passed as an argument": r"^    procedure\(fz_[sf]\d\) :: fz_fn$",
    "component of a derived type": r"\bfz_w%\w+\(",
    "allocatable component of a derived type": r"^  allocate\(fz_w%",
    "buffers swapped through POINTERs": r"^    fz_pa => fz_pb$",
    "swapped buffers in a BINOMIAL-CKP loop": r"BINOMIAL-CKP.*\n\s*do fz_s = ",
    "POINTERs given storage of their own": r"^  allocate\(fz_pa\(n\), fz_pb\(n\)\)$",
    "POINTER dummy arguments": r"real\(8\), pointer, intent\(in\) :: fz_p\(:\)$",
    "row of a 2-D array passed to a call": r"(call |= )(fz_|fz_w%b_)s\d\(.*\b\w+\([^(),:]+, [^(),]*:",
    "function returning an array": r"^  function fz_s\d\(.*\) result\(o\)$",
    "reference to a function returning an array": r"^\s*[\w(): +-]+ = fz_s\d\(",
    "CHARACTER option": r"character\(len=\*\), intent\(in\) :: mode$",
    "CHARACTER comparison": r"mode\)? (==|/=|\.eq\.) '",
    "CHARACTER expression compared": r"mode\)? (==|/=|\.eq\.) (achar|repeat|'\w+' //)",
    "call through a generic interface": r"\bfz_g1\(",
}


def test_fortran_generator_covers_the_constructs():
    missing = _rare_constructs(fortran_generator.generate, FORTRAN_FEATURES)
    assert not missing, f"constructs (almost) never generated: {missing}"


def test_fortran_minimizer_keeps_programs_valid(tmp_path):
    """Reduce a program to 'still has a DO WHILE and a call' with a cheap predicate; the
    result must be small and still compile."""
    _need_gfortran()
    src = tmp_path / "m.f90"

    def still(text):
        if not re.search(r"^\s*do while", text, re.M) or "call fz_s" not in text:
            return False
        src.write_text(text)
        try:
            fortran_minimize.compiles(src)
        except AssertionError:
            return False
        return True

    seed = next(s for s in range(100) if still(fortran_generator.generate(s)))
    prog = fortran_generator.generate_program(seed)
    small = fortran_minimize.render(fortran_minimize.minimize(prog, still, max_tests=300, max_seconds=90))
    assert still(small)
    assert small.count("\n") < fortran_generator.generate(seed).count("\n")
    statements = [line for line in small.split("end module", 1)[-1].splitlines()[1:]
                  if line.strip() and "::" not in line and line.split()[0] not in ("use", "implicit")]
    assert len(statements) < 20, small


@pytest.mark.fuzz
def test_fuzz_adgen_fortran(tmp_path, capsys):
    """A fixed set of random Fortran programs through adgen and the harness."""
    _need_gfortran()
    _fuzz_run(["--lang", "fortran", "--count", str(FORTRAN_COUNT), "--seed", str(FORTRAN_SEED),
               "--no-minimize", "--workdir", str(tmp_path), "--max-seconds", str(FORTRAN_BUDGET)],
              capsys)


def test_edited_programs_get_output_or_a_located_error():
    """Testsuite programs with random edits: adgen answers each with C that compiles (when
    the edited program does) or an error at a position, never an internal error; some of
    the answers are outputs, so that both sides are checked."""
    import io
    out, tally = io.StringIO(), {}
    findings = mutate.run(80, seed=3, out=out, tally=tally)
    assert findings == 0, out.getvalue()
    assert tally.get("compiled", 0) >= 5 and tally.get("refused", 0) >= 20, tally
