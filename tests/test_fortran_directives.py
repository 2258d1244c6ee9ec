"""Tapenade's Fortran directives (`!$AD ...` comments): BINOMIAL-CKP checkpoints the DO
loop it stands before, NOCHECKPOINT is accepted silently, others are warned about."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "testsuite" / "fortran"
CHECKPOINTED = "binomial checkpointing of the loop"


def adgen(source, tmp_path, head=None, *options):
    """(adgen --reverse's process, its output's text or "" when it fails)."""
    out = tmp_path / "out.c"
    cmd = [sys.executable, "-m", "adgen", "--reverse", str(source), "-o", str(out)]
    if head:
        cmd += ["--head", head]
    cmd += list(options)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc, out.read_text() if proc.returncode == 0 else ""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("program", ["ckp_diffusion.f90", "ckp_fixed_form.f",
                                     "nocheckpoint_call.f90"])
def test_checkpointed(program, tmp_path):
    proc, code = adgen(SUITE / program, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert CHECKPOINTED in code
    assert "warning" not in proc.stderr      # NOCHECKPOINT is not warned about


LOOP = """\
subroutine s(n, u)
  integer n, t
  real(8) u(n)
{before}
  do t = 1, n
    u(1) = sin(u(1)) * u(2)
  end do
end subroutine
"""


def test_other_directives_warn(tmp_path):
    src = write(tmp_path, "m.f90", LOOP.format(before="  !$AD CHECKPOINT-START\n  !$ad Binomial-Ckp n 2 1"))
    proc, code = adgen(src, tmp_path, "s(u)/(u)")
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:4:3: warning: !$AD CHECKPOINT-START directive ignored" in proc.stderr
    assert CHECKPOINTED in code


def test_fixed_form_spellings(tmp_path):
    for mark in ("C$AD", "c$ad", "*$AD", "!$AD"):
        src = write(tmp_path, "m.f", f"""\
      SUBROUTINE S(N, U)
      INTEGER N, T
      DOUBLE PRECISION U(N)
{mark} BINOMIAL-CKP N 2 1
      DO 10 T = 1, N
         U(1) = SIN(U(1)) * U(2)
 10   CONTINUE
      END
""")
        proc, code = adgen(src, tmp_path, "s(u)/(u)")
        assert proc.returncode == 0, proc.stderr
        assert CHECKPOINTED in code, mark


@pytest.mark.parametrize("before, message, line", [
    ("  !$AD BINOMIAL-CKP n 3", "expected '!$AD BINOMIAL-CKP nsteps nsnaps first'", 4),
    ("  !$AD BINOMIAL-CKP n 3.5 1", "the snapshot count must be an integer", 4),
    ("  !$AD BINOMIAL-CKP n 3 1\n  u(2) = 1", "must stand just before a DO loop", 4),
])
def test_malformed(before, message, line, tmp_path):
    src = write(tmp_path, "m.f90", LOOP.format(before=before))
    proc, _ = adgen(src, tmp_path, "s(u)/(u)")
    assert proc.returncode == 1
    # (at the directive's first character: a comment has no names to point at)
    assert f"{src}:{line}:3: error: " in proc.stderr and message in proc.stderr, proc.stderr


def test_do_while_refused(tmp_path):
    src = write(tmp_path, "m.f90", LOOP.format(before="  !$AD BINOMIAL-CKP n 3 1")
                .replace("do t = 1, n", "do while (u(1) < 1)"))
    proc, _ = adgen(src, tmp_path, "s(u)/(u)")
    assert proc.returncode == 1 and "counted DO loop" in proc.stderr, proc.stderr
