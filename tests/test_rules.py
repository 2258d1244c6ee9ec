"""Derivative rules (--rules FILE, #pragma adgen rule): the generated code calls the user's
NAME_b / NAME_d. Their derivatives are checked against finite differences by the test
suite (testsuite/c/user_rule_solve.c); here: the pragma form, the declarations, the errors."""
import subprocess
import sys
import textwrap

import pytest

SRC = """
    void scale(int n, const double *a, double *y);
    {pragma}
    void model(int n, const double *a, double *y, double *out)
    {{
        int i;
        scale(n, a, y);
        out[0] = 0.0;
        for (i = 0; i < n; i++)
            out[0] += y[i] * y[i];
    }}
"""


def run(tmp_path, pragma, *args):
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent(SRC.format(pragma=pragma)))
    return subprocess.run([sys.executable, "-m", "adgen", str(src), "--head",
                           "model(out)/(a)", "-o", str(tmp_path / "out.c")] + list(args),
                          capture_output=True, text=True)


def test_pragma_rule_declares_and_calls_the_users_routines(tmp_path):
    r = run(tmp_path, "#pragma adgen rule scale(y)/(a) a=n y=n", "--reverse")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "out.c").read_text()
    assert "void scale_b(int n, const double *a, double *ab, double *y, double *yb);" in text
    assert "scale_b(n, a, " in text
    r = run(tmp_path, "#pragma adgen rule scale(y)/(a) a=n y=n", "--forward")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "out.c").read_text()
    assert "void scale_d(int n, const double *a, const double *ad, double *y, double *yd);" \
        in text


@pytest.mark.parametrize("rule, message", [
    ("scale(y)/(b) y=n", "names 'b', which is not one of its parameters"),
    ("scale(y)/(a) y=n", "give the length of 'a'"),
    ("scale(y)/(n) y=n", "'n' is not floating-point data"),
    ("scale(y)(a)", "malformed rule"),
    ("nosuch(y)/(a)", "rule for 'nosuch', which is not a function of the input"),
])
def test_rule_errors(tmp_path, rule, message):
    r = run(tmp_path, "#pragma adgen rule " + rule, "--reverse")
    assert r.returncode == 1
    assert "m.c:3:" in r.stderr and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_rules_file_errors_name_the_line(tmp_path):
    (tmp_path / "r.rules").write_text("# rules\n\nscale(y)/(a) a=n\n")
    r = run(tmp_path, "", "--rules", str(tmp_path / "r.rules"))
    assert r.returncode == 1 and "r.rules:3:1: error:" in r.stderr and "'y'" in r.stderr
    r = run(tmp_path, "", "--rules", str(tmp_path / "missing.rules"))
    assert r.returncode == 1 and "cannot read the rules file" in r.stderr
