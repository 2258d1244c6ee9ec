"""goto in C input (adgen/frontend/jumps.py): lowered to flags, guards and loops, so that
the output has no jump; what no structured code expresses is refused at the goto. The
derivatives of programs with gotos are checked by the harness (testsuite/c/goto_*.c)."""
import subprocess
import sys

import pytest


def _adgen(tmp_path, text, head="f(f)/(x)"):
    src = tmp_path / "g.c"
    src.write_text(text)
    out = tmp_path / "g_b.c"
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                           head, "-o", str(out)], capture_output=True, text=True)
    return proc, src, out


def test_output_has_no_jump(tmp_path):
    proc, _, out = _adgen(tmp_path, (
        "double f(int n, const double *x)\n{\n    double s = 0.0;\n    int i = 0;\n"
        "top:\n    if (i >= n)\n        goto done;\n    s += x[i] * x[i];\n    i++;\n"
        "    goto top;\ndone:\n    return s;\n}\n"))
    assert proc.returncode == 0, proc.stderr
    code = out.read_text()
    assert "goto " not in code and "top:" not in code and "done:" not in code
    assert "while (again_top)" in code and "if (!goto_done)" in code, code


REFUSED = {
    "overlap": ("double f(int n, const double *x)\n{\n    double s = 0.0;\n    int i = 0;\n"
                "a:\n    s += x[0];\nb:\n    s *= 0.5;\n    if (s > 1.0)\n        goto a;\n"
                "    if (s > 0.5)\n        goto b;\n    return s + n;\n}\n",
                ":12:", "the loop formed by goto 'b' overlaps the loop formed by goto 'a'"),
    # (invalid C, which gcc refuses too; a label in a case entered by falling through is
    # converted once per way in, with a name of its own in each: switch_fallthrough_labels.c)
    "label_defined_twice": ("double f(int n, const double *x)\n{\n    double s = 0.0;\n"
                            "twice:\n    s += x[0];\n    if (s < n)\n        goto twice;\n"
                            "twice:\n    return s;\n}\n",
                            ":8:", "label 'twice' is defined twice"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused(tmp_path, name):
    text, where, message = REFUSED[name]
    proc, src, _ = _adgen(tmp_path, text)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{src}{where}" in proc.stderr and message in proc.stderr, proc.stderr
