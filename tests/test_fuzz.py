"""Random programs (tests/fuzz): the generator on its own, and a short fuzz run of adgen.

The fuzz run is marked `fuzz` (deselect with `-m "not fuzz"`).  ADGEN_FUZZ_COUNT,
ADGEN_FUZZ_SEED, ADGEN_FUZZ_INFER (share of programs where adgen must infer the array
lengths) and ADGEN_FUZZ_SECONDS (start no check after that) change it; a failure prints
how to reproduce and minimize it.
"""

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fuzz import generator, minimize, runner, selfcheck  # noqa: E402

FUZZ_SEED = int(os.environ.get("ADGEN_FUZZ_SEED", "1000"))
FUZZ_COUNT = int(os.environ.get("ADGEN_FUZZ_COUNT", "200"))
FUZZ_INFER = os.environ.get("ADGEN_FUZZ_INFER", "0.25")  # share of `sizes: infer` programs
FUZZ_BUDGET = float(os.environ.get("ADGEN_FUZZ_SECONDS", "225"))  # safety net: ~4 min


def test_generator_is_deterministic():
    for seed in (0, 1, 17, 12345):
        assert generator.generate(seed) == generator.generate(seed)
    assert len({generator.generate(s) for s in range(30)}) == 30


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
    "while loop with data-dependent exit": r"while \(k\d+ < \w+ && ",
    "do-while loop": r"\} while \(",
    "early return": r"^ {8,}return ",
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
}


def test_generator_covers_the_constructs():
    texts = [generator.generate(s) for s in range(150)]
    missing = [name for name, pat in FEATURES.items()
               if sum(bool(re.search(pat, t, re.M)) for t in texts) < 5]
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


@pytest.mark.fuzz
def test_fuzz_adgen(tmp_path, capsys):
    """A fixed set of random programs through adgen and the harness."""
    if not runner.harness_available():
        pytest.skip("tests/harness.py is not there yet")
    from tests.fuzz.__main__ import main
    args = ["--count", str(FUZZ_COUNT), "--seed", str(FUZZ_SEED), "--no-minimize",
            "--workdir", str(tmp_path), "--max-seconds", str(FUZZ_BUDGET), "--infer-share", FUZZ_INFER]
    status = main(args)
    out = capsys.readouterr().out
    print(out)
    if status:
        fails = [l for l in out.splitlines() if l.startswith(("FAIL", "  "))]
        pytest.fail(f"{len([l for l in fails if l.startswith('FAIL')])} fuzz failures "
                    f"(reproduce and minimize one with: python -m tests.fuzz --count 1 "
                    f"--seed SEED --keep DIR):\n" + "\n".join(fails[:40]), pytrace=False)
