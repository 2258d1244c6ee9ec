"""Runs checks of programs in worker processes and classifies the outcomes.

Checks run in `python -m tests.fuzz.runner --serve` processes, one per fuzzing thread, so
that a hang (adgen looping, a driver spinning) is ended by a timeout and a crash cannot take
the fuzzer down. A worker serves many checks in turn (starting Python and importing adgen
took a third of a check's time); it is killed at a timeout and replaced after a crash or
after WORKER_CHECKS checks.

Outcome (a dict, JSON between processes):
  status   pass | fail | skip | invalid
           skip:    the program is unusable as a test for a reason that is not a bug
                    (its finite differences straddle a kink, its Jacobian is zero)
           invalid: the generator made a bad program (spec error, non-finite values,
                    does not compile, sanitizer error): a bug of tests/fuzz
  kinds    failure categories, most telling first (e.g. ["adgen-reverse: internal error
           UndefinedError", "adjoint-mismatch"])
  message  the checker's message
"""

from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# categories of the harness's failure lines, in order of priority
_LINE_KINDS = [
    (r"timed out", "timeout"),
    (r"^compiling (\w+)_([bd])\.c at (-O\d) failed", "gcc"),
    (r"does not define the routine with the prototype", "prototype"),
    (r"^linking the driver", "link"),
    (r"^compiling the driver", "driver-compile"),
    (r"^running the driver failed", "driver-crash"),
    (r"driver output is not JSON", "driver-output"),
    (r"left the garbage .* tangent", "garbage-tangent"),
    (r"left the garbage .* adjoint", "garbage-adjoint"),
    (r"^primal output .* computed by \w+_d\b", "primal-tangent"),
    (r"^primal output .* computed by \w+_b\b", "primal-reverse"),
    (r"^tangent .* vs central finite differences", "tangent-mismatch"),
    (r"^adjoint .* vs central finite differences", "adjoint-mismatch"),
    (r"^dot-product test", "dot-product"),
    (r"did not consume the seed", "seed-not-consumed"),
]
_SKIP = [
    (r"the FD cannot be trusted", "fd-kink"),
    (r"finite-difference Jacobian is identically zero", "vacuous"),
]
_INVALID = [
    (r"primal gives non-finite", "nonfinite"),
    (r"finite differences are not finite", "nonfinite"),
    (r"too large to tell from the garbage", "huge"),
]
# failures of which finite differences are the judge: a rare kink can fake them
FD_KINDS = {"tangent-mismatch", "adjoint-mismatch"}


def _normalize(msg: str) -> str:
    """An error message without the names, numbers and paths that vary between programs."""
    msg = re.sub(r"\S*/", "", msg)  # paths
    msg = re.sub(r"'[^']*'|‘[^’]*’|\"[^\"]*\"", "'_'", msg)
    msg = re.sub(r"\b\d+(\.\d+)?([eE][-+]?\d+)?\b", "N", msg)
    msg = re.sub(r"\b(fz_\w+|[a-z]\d*|sink|acc\d+|s\d+|t\d+|buf\d+|p\d+|k\d+|cnt\d+)\b", "_", msg)
    return " ".join(msg.split())[:160]


def _adgen_kind(mode: str, out: str) -> str:
    """adgen --MODE failed: the first diagnostic, normalized."""
    for line in out.splitlines():
        m = re.search(r"internal error in adgen \((\w+)", line)
        if m:
            inner = re.search(r"internal error in adgen \((.*?)\); please", line)
            return f"adgen-{mode}: internal {_normalize(inner.group(1) if inner else m.group(1))}"
        m = re.search(r"\berror: (.*)", line)
        if m:
            return f"adgen-{mode}: {_normalize(m.group(1))}"
        m = re.match(r"(\w+(Error|Exception)): (.*)", line.strip())
        if m:
            return f"adgen-{mode}: traceback {m.group(1)}: {_normalize(m.group(3))}"
    return f"adgen-{mode}: exit"


def classify(message: str, exc_type: str) -> dict:
    if exc_type == "SpecError":
        return {"status": "invalid", "kinds": ["spec"], "message": message}
    for pat, kind in _INVALID:
        if re.search(pat, message):
            return {"status": "invalid", "kinds": [kind], "message": message}
    for pat, kind in _SKIP:
        if re.search(pat, message):
            return {"status": "skip", "kinds": [kind], "message": message}
    kinds = []
    # adgen's own failure: the diagnostic text after the command line
    for m in re.finditer(r"adgen --(reverse|forward) failed \(exit (-?\d+)\)\n(.*?)(?=\n- |\n  \(work files|\Z)",
                         message, re.S):
        kinds.append(_adgen_kind(m.group(1), m.group(3)))
    if re.search(r"adgen --\w+ exited 0 but wrote no", message):
        kinds.append("adgen-no-output")
    found = []  # (priority, kind)
    for line in message.splitlines():
        line = line.strip().lstrip("- ")
        for prio, (pat, kind) in enumerate(_LINE_KINDS):
            m = re.search(pat, line)
            if m:
                if kind == "gcc":
                    kind = f"gcc{m.group(3)}-{'reverse' if m.group(2) == 'b' else 'forward'}"
                    err = re.search(r"error: (.*)", message[message.find(line):])
                    if err:
                        kind += ": " + _normalize(err.group(1))
                if kind not in [k for _, k in found]:
                    found.append((prio, kind))
    kinds += [k for _, k in sorted(found)]
    if not kinds:
        kinds = [f"other: {_normalize(message.splitlines()[0] if message else exc_type)}"]
    return {"status": "fail", "kinds": kinds, "message": message}


def check_here(source: Path, workdir: Path, mode: str) -> dict:
    """Runs the check in this process: mode 'harness' (adgen + harness), 'primal'
    (harness without adgen) or 'self' (gcc + sanitizers only)."""
    for path in (str(REPO / "tests"), str(REPO)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from tests.fuzz import distributed, selfcheck
    if mode == "harness" and source.read_text().startswith(distributed.MARK):
        return distributed.check(source, workdir)
    try:
        fortran = source.suffix == ".f90"
        if mode in ("self", "primal"):
            if fortran:
                selfcheck.compile_fortran(source, workdir / "self")
            else:
                selfcheck.check_self(source, workdir / "self")
        if mode in ("harness", "primal"):
            import harness
            if fortran and mode == "primal" and "-fcheck=all" not in harness.FC_FLAGS:
                harness.FC_FLAGS.append("-fcheck=all")  # out-of-bounds indices stop the primal
            if mode == "harness":
                program = source
                while True:
                    try:
                        harness.check_program(program, workdir / program.stem)
                        break
                    except AssertionError as exc:
                        # adgen refused to guess an array's length (as it must when it
                        # cannot tell it); with the lengths given, or without the
                        # directives whose state needs them, the derivatives are still checked
                        program = _with_sizes_given(program, str(exc), workdir) or \
                            _without_directives(program, str(exc), workdir)
                        if program is None:
                            raise
            else:
                harness.check_primal(source, workdir)
        return {"status": "pass", "kinds": [], "message": ""}
    except AssertionError as exc:
        if mode == "self" or str(exc).startswith(("gcc -O", "gfortran -std", "driver build", "program crashed",
                                                  "non-finite or huge")):
            return {"status": "invalid", "kinds": ["selfcheck"], "message": str(exc)}
        outcome = classify(str(exc), "AssertionError")
        if outcome["kinds"] == ["dot-product"] and \
                re.search(r"#pragma adgen fp_loop|!\$AD FP-LOOP", source.read_text()):
            # both sweeps agree with finite differences; the tangent differentiates the
            # iterations run, the adjoint the fixed point: they differ by what the iterations
            # left (a derivative decaying with them, 1e-24 against the adjoint's 0)
            return dict(outcome, status="skip", kinds=["fp-dot"])
        if source.suffix == ".c" and any(k.startswith("gcc-O3") for k in outcome["kinds"]):
            try:
                selfcheck.compile_only(source, "-O3")
            except AssertionError as own:
                # gcc -O3 refuses the program itself (a signed overflow it cannot rule out
                # in an index): the derivative code keeps the program's expressions
                return {"status": "invalid", "kinds": ["selfcheck"], "message": str(own)}
        return outcome
    except Exception as exc:  # SpecError and anything unexpected
        return classify(f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}",
                        type(exc).__name__)


def _with_sizes_given(source: Path, message: str, workdir: Path):
    """A copy of the program that gives its array lengths, when adgen's only complaint was
    that it cannot tell one (`give it with --size`); None otherwise."""
    text = source.read_text()
    if "give it with --size" not in message or "sizes: give" in text:
        return None
    other = [line for line in message.splitlines() if "error:" in line and
             "give it with --size" not in line]
    if other:
        return None
    copy = workdir / (source.stem + "_sizes_given.c")
    copy.parent.mkdir(parents=True, exist_ok=True)
    start = text.find("adgen-test")
    end = text.find("*/", start)
    if start < 0 or end < 0:
        return None
    copy.write_text(text[:end] + "sizes: give\n" + text[end:])
    return copy


# adgen's refusals of a directive for want of an array's length (a helper's array indexed by
# a counter it cannot bound): documented, not bugs
_LENGTH_REFUSALS = (r"error: (binomial_ckp|fp_loop): cannot tell how many elements",
                    r"error: #pragma adgen checkpoint: its state cannot be kept: cannot tell "
                    r"how many elements",
                    r"error: #pragma adgen checkpoint: the adjoint of .* is zeroed as its "
                    r"elements are read")


def _without_directives(source: Path, message: str, workdir: Path):
    """A copy of the program without its checkpointing directives (binomial_ckp, fp_loop,
    checkpoint; Fortran's BINOMIAL-CKP and FP-LOOP), when adgen's only complaint was that
    it cannot tell the length of an array of the state they keep; None otherwise."""
    errors = [line for line in message.splitlines() if "error:" in line]
    if not errors or not all(any(re.search(p, line) for p in _LENGTH_REFUSALS)
                             for line in errors):
        return None
    kept = [line for line in source.read_text().split("\n")
            if not re.match(r"\s*(#pragma adgen (binomial_ckp|fp_loop|checkpoint)\b|"
                            r"!\$AD (BINOMIAL-CKP|FP-LOOP)\b)", line)]
    copy = workdir / (source.stem + "_no_directives" + source.suffix)
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text("\n".join(kept))
    return copy


# checks a worker serves before it is replaced (whatever a check leaves behind in the
# process stays bounded)
WORKER_CHECKS = 200


class Worker:
    """One `python -m tests.fuzz.runner --serve` process: a request per line on its stdin
    ([source, workdir, mode]), the outcome as one JSON line on its stdout; what the checks
    print goes to a log file, read back when the worker dies."""

    def __init__(self):
        self.log = tempfile.NamedTemporaryFile(prefix="adgen-fuzz-worker-", suffix=".log")
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.fuzz.runner", "--serve"],
                                     cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1,
                                     start_new_session=True)
        self.served = 0

    def check(self, source: Path, workdir: Path, mode: str, timeout: float) -> dict:
        self.served += 1
        try:
            self.proc.stdin.write(json.dumps([str(source), str(workdir), mode]) + "\n")
            self.proc.stdin.flush()
        except OSError:
            return self.crashed()
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            if not ready:
                self.close()
                return {"status": "fail", "kinds": ["timeout"],
                        "message": f"check timed out after {timeout} s"}
            line = self.proc.stdout.readline()
            if not line:
                return self.crashed()
            try:
                return json.loads(line)
            except json.JSONDecodeError:
                continue

    def crashed(self) -> dict:
        code = self.proc.poll()
        self.close()
        with open(self.log.name, errors="replace") as log:
            tail = log.read()[-2000:]
        return {"status": "fail", "kinds": ["checker-crash"],
                "message": f"checker exit {code}\n{tail}"}

    def alive(self) -> bool:
        return self.proc.poll() is None and self.served < WORKER_CHECKS

    def close(self):
        """Ends the worker and whatever it started (a driver spinning at a timeout)."""
        if self.proc.stdin.closed:
            return
        try:
            os.killpg(self.proc.pid, 9)
        except ProcessLookupError:
            pass
        self.proc.wait()
        try:
            self.proc.stdin.close()     # (flushing a request the dead worker never read)
        except BrokenPipeError:
            pass
        self.proc.stdout.close()

    __del__ = close


workers = threading.local()


def check(source: Path, workdir: Path, mode: str = "harness", timeout: float = 600) -> dict:
    """check_here in this thread's worker process, with a timeout."""
    worker = getattr(workers, "worker", None)
    if worker is None or not worker.alive():
        if worker is not None:
            worker.close()
        worker = workers.worker = Worker()
    return worker.check(source, workdir, mode, timeout)


def serve():
    """The worker's loop. Results go to the stdout it was started with; everything else
    written to standard output (by the checks or the programs they start) goes to stderr."""
    results = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for request in sys.stdin:
        source, workdir, mode = json.loads(request)
        results.write(json.dumps(check_here(Path(source), Path(workdir), mode)) + "\n")


def harness_available() -> bool:
    return (REPO / "tests" / "harness.py").exists()


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        src, wd, md = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
        print(json.dumps(check_here(src, wd, md)))
