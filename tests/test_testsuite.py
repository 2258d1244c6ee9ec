"""Every C test program under testsuite/c/ through the generic harness (tests/harness.py)."""
from pathlib import Path

import pytest

import harness

ROOT = Path(__file__).resolve().parent.parent
# the programs, and the minimized failures kept as regression tests
PROGRAMS = sorted((ROOT / "testsuite" / "c").glob("*.c")) + \
    sorted((ROOT / "testsuite" / "c" / "regress").glob("*.c"))


@pytest.mark.parametrize("stack", harness.STACKS)
@pytest.mark.parametrize("source", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(source, stack, tmp_path, monkeypatch):
    monkeypatch.setenv("ADGEN_TEST_STACK", stack)     # --stack=heap or static adjoints
    try:
        harness.check_program(source, tmp_path)
        return
    except AssertionError as exc:
        message = str(exc)
    pytest.fail(message, pytrace=False)     # the harness's message says it all
