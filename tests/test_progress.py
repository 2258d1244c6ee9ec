"""The progress report of a long run on standard error (adgen/progress.py): shown on a
terminal, silenced by --quiet, shown elsewhere only with --progress, and never before the
run has lasted progress.DELAY seconds (set to 0 here, so that a small program shows it)."""
import io
import sys

import pytest

from adgen import cli, progress

PROGRAM = """\
static double scale(double a, double s) { return a * s + 1.0; }
double f(int n, const double *x)
{
    double y = 0.0;
    for (int i = 0; i < n; i++) y = y + scale(x[i], 0.5) * x[i];
    return y;
}
"""


class Terminal(io.StringIO):
    def isatty(self):
        return True


class NotTerminal(io.StringIO):
    def isatty(self):
        return False


def run(monkeypatch, tmp_path, stream, *flags, delay=0.0):
    """adgen --reverse on PROGRAM with stream as standard error: (status, what it got)."""
    monkeypatch.setattr(progress, "DELAY", delay)
    monkeypatch.setattr(sys, "stderr", stream)
    src = tmp_path / "prog.c"
    src.write_text(PROGRAM)
    status = cli._main(["--reverse", str(src), "--head", "f(f)/(x)",
                        "-o", str(tmp_path / "prog_b.c"), *flags])
    return status, stream.getvalue()


def test_terminal_shows_stage_and_function_then_clears_the_line(monkeypatch, tmp_path):
    status, err = run(monkeypatch, tmp_path, Terminal())
    assert status == 0
    assert "\radgen: reading the sources" in err
    assert "adgen: differentiating, pass 1 1/" in err
    assert ": scale" in err or ": f" in err
    assert "\n" not in err, "a terminal gets one line, redrawn in place"
    # the last thing written blanks the line and returns to its start
    assert err.endswith("\r") and err.rsplit("\r", 2)[1].strip() == ""
    assert (tmp_path / "prog_b.c").exists()


def test_quiet_shows_nothing_on_a_terminal(monkeypatch, tmp_path):
    status, err = run(monkeypatch, tmp_path, Terminal(), "--quiet")
    assert status == 0 and err == ""


def test_nothing_when_not_a_terminal_unless_asked(monkeypatch, tmp_path):
    status, err = run(monkeypatch, tmp_path, NotTerminal())
    assert status == 0 and err == ""
    status, err = run(monkeypatch, tmp_path, NotTerminal(), "--progress")
    assert status == 0
    lines = err.splitlines()
    assert "\r" not in err and err.endswith("\n"), "whole lines where nothing is redrawn"
    assert lines[0] == "adgen: reading the sources"
    assert any(line.startswith("adgen: differentiating, pass 1 1/") for line in lines)
    assert lines[-1] == "adgen: writing the C"


def test_nothing_before_the_delay(monkeypatch, tmp_path):
    status, err = run(monkeypatch, tmp_path, Terminal(), delay=3600.0)
    assert status == 0 and err == ""


@pytest.mark.parametrize("mode", ["--forward", "--reverse"])
def test_errors_come_on_a_line_of_their_own(monkeypatch, tmp_path, mode):
    """A refusal after progress was shown starts on a fresh line (the progress line is
    cleared first)."""
    monkeypatch.setattr(progress, "DELAY", 0.0)
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    src = tmp_path / "bad.c"
    src.write_text("double f(double x) { return g(x); }\n")
    assert cli._main([mode, str(src), "-o", str(tmp_path / "out.c")]) == 1
    err = stream.getvalue()
    assert "error:" in err
    cleared = err.rsplit("\r", 1)
    assert cleared[1].startswith(str(src)), err


def test_quiet_and_progress_exclude_each_other(monkeypatch, tmp_path):
    status, err = run(monkeypatch, tmp_path, NotTerminal(), "--quiet", "--progress")
    assert status == 2 and "not allowed with" in err
