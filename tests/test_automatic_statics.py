"""Static locals that keep nothing between calls become locals of the derivative code
(transform/automatic_statics.py); the others stay file-scope statics of the output."""
import os
import subprocess
import sys

import pytest

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent

SET_FIRST = """
double f(int n, const double *x)
{
    static int i;
    static double s;
    s = 0.0;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    return s;
}
"""
READ_FIRST = """
double f(int n, const double *x)
{
    static int i;
    static double s;
    s = 0.0;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    static double scale = 2.0;
    return s * scale;
}
"""
RECURSIVE = """
double f(int n, const double *x)
{
    static int i;
    static double s;
    double t = 0.0;
    s = 0.0;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    if (n > 1)
        t = f(n - 1, x);
    return s + t;
}
"""
# f2c's way of passing a local: the callee reaches it through *v during the call, and its
# every path sets it before reading it (s = 0.0 before the call, i by the callee)
HANDED_BY_ADDRESS = """
static void twice(double *v) { *v = 2.0 * *v; }
static void first(int *k) { *k = 0; }
double f(int n, const double *x)
{
    static int i;
    static double s;
    s = 0.0;
    for (first(&i); i < n; i++)
        s += x[i] * x[i];
    twice(&s);
    return s;
}
"""
# the callee keeps the address: a later call may reach s through it
ADDRESS_TAKEN = """
double *last_scaled;
static void twice(double *v) { last_scaled = v; *v = 2.0 * *v; }
double f(int n, const double *x)
{
    static int i;
    static double s;
    s = 0.0;
    for (i = 0; i < n; i++)
        s += x[i] * x[i];
    twice(&s);
    return s;
}
"""


def _reverse(tmp_path, source):
    (tmp_path / "p.c").write_text(source)
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "p.c", "--head",
                           "f(f)/(x)", "--size", "x=n", "-o", "p_b.c"], cwd=tmp_path,
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    return (tmp_path / "p_b.c").read_text()


@pytest.mark.parametrize("source, kept", [
    (SET_FIRST, []),                            # set before read on every call: locals
    (READ_FIRST, ["static double f_scale"]),     # read before any set: its value
    (RECURSIVE, ["static int f_i", "static double f_s", "static double f_sb"]),  # an
    # inner call changes them
    (ADDRESS_TAKEN, ["static double f_s", "static double f_sb"]),  # a pointer to it may
    # outlive the call
    (HANDED_BY_ADDRESS, []),    # reached through the pointer during the call only
], ids=["set_first", "read_first", "recursive", "address_taken", "handed_by_address"])
def test_static_locals_automatic_where_they_keep_nothing(tmp_path, source, kept):
    text = _reverse(tmp_path, source)
    statics = [line.rstrip(";").split(" = ")[0] for line in text.splitlines()
               if line.startswith(("static int f_", "static double f_")) and "(" not in line]
    assert statics == kept, text
    if not kept:
        assert "    int i = 0;" in text and "    double s = 0.0;" in text, text
