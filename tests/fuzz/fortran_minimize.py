"""Reduction of a failing generated Fortran program, statement by statement.

Simpler than minimize.py: over the statement trees of fortran_generator, it tries
dropping a helper procedure, deleting a statement (a construct with its body) and
replacing an IF, SELECT CASE or WHERE by the statements of one of its branches, keeping
each edit after which the program still compiles and still fails the same way.  Pinned
statements (a DO WHILE counter's increment, the setting of an intent(out) dummy) go only
with their construct, and the first value of a local only once nothing else uses it (no
edit makes a read of an unset variable).  Declarations follow the names the body uses,
so a deletion leaves no unused local behind.
"""

from __future__ import annotations

import copy
import re
import tempfile
import time
from pathlib import Path
from typing import Callable

from .fortran_generator import Program, lines, render
from .selfcheck import _run

__all__ = ["render", "minimize", "describe", "compiles"]

UNWRAPPABLE = ("if", "select", "where")


def compiles(source: Path) -> None:
    """The program is valid Fortran 2008 for gfortran (raises AssertionError)."""
    with tempfile.TemporaryDirectory() as moddir:
        rc, _, err = _run(["gfortran", "-std=f2008", "-J", moddir, "-c", str(source.resolve()),
                           "-o", "/dev/null"], moddir)
    if rc:
        raise AssertionError(f"gfortran rejects the program:\n{err[-2000:]}")


def _edits(prog: Program) -> list:
    """Every edit of prog, outer statements before inner ones."""
    out = [("drop", i) for i in range(len(prog.helpers))]

    def visit(ri, stmts, path):
        for k, s in enumerate(stmts):
            here = path + (k,)
            if not s.pinned:
                out.append(("delete", ri, here))
            if s.kind in UNWRAPPABLE:
                out.extend(("unwrap", ri, here, p) for p in range(len(s.parts)))
            for p, (_, body) in enumerate(s.parts):
                visit(ri, body, here + (p,))

    for ri, routine in enumerate(prog.routines()):
        visit(ri, routine.body, ())
    return out


def _apply(prog: Program, edit):
    """prog edited, or None when the edit would leave a local read before it is set."""
    new = copy.deepcopy(prog)
    if edit[0] == "drop":
        name = new.helpers[edit[1]].name
        del new.helpers[edit[1]]
        # the head would still compile (it would call an external procedure) but not link
        if any(re.search(rf"\b{name}\b", line) for r in new.routines() for line in lines(r.body)):
            return None
        return new
    routine = new.routines()[edit[1]]
    stmts = routine.body
    path = edit[2]
    # path: statement index, then (part index, statement index) pairs
    for i in range(0, len(path) - 1, 2):
        stmts = stmts[path[i]].parts[path[i + 1]][1]
    k = path[-1]
    if edit[0] == "delete":
        name = stmts[k].defines
        del stmts[k]
        if name and any(re.search(rf"\b{name}\b", line) for line in lines(routine.body)):
            return None
    else:
        stmts[k:k + 1] = stmts[k].parts[edit[3]][1]
    return new


def minimize(prog: Program, still_fails: Callable[[str], bool], max_tests: int = 300,
             max_seconds: float = 900, log=None) -> Program:
    """The smallest program reached by edits that keep still_fails(text) true."""
    t0, tests = time.time(), 0
    best, progress = prog, True
    while progress:
        progress, i = False, 0
        edits = _edits(best)
        while i < len(edits):
            if tests >= max_tests or time.time() - t0 > max_seconds:
                return best
            cand = _apply(best, edits[i])
            if cand is None:
                i += 1
                continue
            tests += 1
            if still_fails(render(cand)):
                if log:
                    log(f"  kept {edits[i][0]} {edits[i][1:]}: {render(cand).count(chr(10))} lines")
                best, progress = cand, True
                edits = _edits(best)    # the next edit now sits at index i
            else:
                i += 1
    return best


_CONSTRUCTS = [
    (r"!\$AD BINOMIAL-CKP", "BINOMIAL-CKP"), (r"!\$AD FP-LOOP", "FP-LOOP"),
    (r"\ballocate\(", "allocatable local array"),
    (r"!\$AD NOCHECKPOINT", "NOCHECKPOINT"),
    (r"^\s*(\w+: )?do \w+ =", "DO loop"), (r"^\s*do while", "DO WHILE"),
    (r"\bexit\b", "EXIT"), (r"\bcycle\b", "CYCLE"), (r"^\s*if \(.*\) then", "IF"),
    (r"^\s*select case", "SELECT CASE"), (r"^\s*where", "WHERE"),
    (r"\w\([^()]*:[^()]*\)", "array section"), (r"\bcall fz_s", "subroutine call"),
    (r"\bfz_f\d\(", "function call"), (r"\bfz_state\b", "module variable"),
    (r"\b(sum|dot_product|maxval|minval|product)\(", "reduction"), (r"\*\*", "**"),
]


def describe(text: str) -> str:
    """The constructs a (minimized) program exercises, for its comment line."""
    body = text.split("end module", 1)[0].split("contains", 1)[-1] + text.split("end module", 1)[-1]
    found = [name for pat, name in _CONSTRUCTS if re.search(pat, body, re.M)]
    return ", ".join(found) or "straight-line code"
