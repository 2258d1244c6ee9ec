"""Every C test program under testsuite/c/ through the generic harness (tests/harness.py)."""
from pathlib import Path

import pytest

import harness

ROOT = Path(__file__).resolve().parent.parent
# the programs, and the minimized failures kept as regression tests
PROGRAMS = sorted((ROOT / "testsuite" / "c").glob("*.c")) + \
    sorted((ROOT / "testsuite" / "c" / "regress").glob("*.c"))


@pytest.mark.parametrize("source", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(source, tmp_path):
    try:        # the adjoints with each stack kind (--stack=heap, static), one tangent
        harness.check_program(source, tmp_path, stacks=harness.STACKS)
        return
    except AssertionError as exc:
        message = str(exc)
    pytest.fail(message, pytrace=False)     # the harness's message says it all


def test_struct_handles_lose_no_memory(tmp_path, monkeypatch):
    """Structs holding pointers, made by a function returning them and freed by one taking
    them by value: built with ASan, whose LeakSanitizer reports any block the primal or
    the derivative code loses (the tangent must free the shadows where the program frees
    the data; the adjoint at the end of its backward sweep)."""
    monkeypatch.setattr(harness, "SANITIZE", harness.SANITIZE_FLAGS)
    monkeypatch.setenv("ADGEN_TEST_STACK", "heap")
    monkeypatch.delenv("ASAN_OPTIONS", raising=False)
    harness.check_program(ROOT / "testsuite" / "c" / "struct_handles_by_value.c", tmp_path)


def test_a_push_in_a_branch_not_taken_compiles_with_the_sanitizers_at_O3(tmp_path,
                                                                          monkeypatch):
    """A helper updating a caller's 4-element array through an alias in a branch that is
    dead for that size: gcc -O3 with the sanitizers inlines the push there and reads it
    as past the array (-Wstringop-overread), which the generated file turns off for
    itself as it does -Warray-bounds."""
    monkeypatch.setattr(harness, "SANITIZE", harness.SANITIZE_FLAGS)
    monkeypatch.setenv("ADGEN_TEST_STACK", "heap")
    monkeypatch.delenv("ASAN_OPTIONS", raising=False)
    harness.check_program(ROOT / "testsuite" / "c" / "regress" /
                          "fuzz_alias_dead_branch_array_bounds.c", tmp_path)
