"""Whether a local array is set whole before anything reads it (adgen.analysis.whole_array),
and what the derivative code makes of it: an array set whole is not zeroed on entry, one
that may be read first is."""
import subprocess
import sys
import textwrap

import pytest

from adgen.analysis.whole_array import set_before_read
from adgen.driver import Options, load_program, normalize_program, structure_program


def answer(tmp_path, decl, body):
    """set_before_read of local array `a` declared by decl in a function with body."""
    path = tmp_path / "prog.c"
    path.write_text("double f(int n, const double *x)\n{\n    " + decl + "\n"
                    "    double s = 0.0;\n    int i, j, k;\n" +
                    textwrap.indent(textwrap.dedent(body), "    ") +
                    "    return s;\n}\n")
    prog = load_program([str(path)], Options())
    normalize_program(prog, ["f"])
    structure_program(prog, ["f"])
    f = prog.functions["f"]
    a = next(s for s in f.locals if s.name == "a")
    return set_before_read(f.body.stmts, a)


SET_WHOLE = {
    "one loop": ("double a[8];", """
        for (i = 0; i < 8; i++) a[i] = x[i % n];
        s = a[3];
    """),
    "downward, other statements beside": ("double a[8];", """
        for (i = 7; i >= 0; i--) { s = s + 1.0; a[i] = x[0] * i; }
        s = a[3];
    """),
    "two dimensions": ("double a[3][4];", """
        for (i = 0; i < 3; i++) for (j = 0; j < 4; j++) a[i][j] = x[j];
        s = a[2][1];
    """),
    "flattened, one-based, column-major": ("double a[12];", """
        for (j = 1; j <= 4; j++) for (i = 1; i <= 3; i++) a[(i - 1) + (j - 1) * 3] = x[0];
        s = a[5];
    """),
    "after statements that do not touch it": ("double a[4];", """
        s = x[0];
        if (n > 2) s = x[1];
        for (i = 0; i < 4; i++) a[i] = s;
        s = a[0];
    """),
}

NOT_SET_WHOLE = {
    "read first": ("double a[8];", """
        s = a[0];
        for (i = 0; i < 8; i++) a[i] = x[0];
    """),
    "misses the first element": ("double a[8];", """
        for (i = 1; i < 8; i++) a[i] = x[0];
        s = a[0];
    """),
    "bound at run time": ("double a[8];", """
        for (i = 0; i < n; i++) a[i] = x[0];
        s = a[0];
    """),
    "every other element": ("double a[8];", """
        for (i = 0; i < 4; i++) a[2 * i] = x[0];
        s = a[1];
    """),
    "set under a condition": ("double a[4];", """
        for (i = 0; i < 4; i++) if (x[i] > 0.0) a[i] = x[i];
        s = a[0];
    """),
    "reads itself": ("double a[4];", """
        for (i = 0; i < 4; i++) a[i] = a[i] + x[0];
    """),
    "an iteration stops early": ("double a[4];", """
        for (i = 0; i < 4; i++) { if (x[i] > 0.0) break; a[i] = x[i]; }
        s = a[0];
    """),
    "counter changed in the body": ("double a[4];", """
        for (i = 0; i < 4; i++) { a[i] = x[0]; i = i + 1; }
        s = a[0];
    """),
    "rows overlap": ("double a[12];", """
        for (j = 0; j < 4; j++) for (i = 0; i < 4; i++) a[i + j * 2] = x[0];
        s = a[0];
    """),
    "set only in one branch": ("double a[4];", """
        if (n > 1) { for (i = 0; i < 4; i++) a[i] = x[0]; }
        s = a[0];
    """),
}


@pytest.mark.parametrize("case", sorted(SET_WHOLE))
def test_set_whole(tmp_path, case):
    assert answer(tmp_path, *SET_WHOLE[case]) is True


@pytest.mark.parametrize("case", sorted(NOT_SET_WHOLE))
def test_not_set_whole(tmp_path, case):
    assert answer(tmp_path, *NOT_SET_WHOLE[case]) is False


GRID = """
#include <math.h>
#define NX 300
#define NY 200

double energy(int n, const double *u)
{
    double h[NX][NY], g[NX][NY];
    double e = 0.0;
    int i, j;
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            h[i][j] = u[(i + j) % n];
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            g[i][j] = sin(h[i][j]) * h[(i + 1) % NX][j];
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++)
            e = e + g[i][j] * g[i][j];
    return e;
}
"""


@pytest.mark.parametrize("mode", ["--forward", "--reverse"])
def test_large_work_arrays_set_by_loops_are_not_zeroed(tmp_path, mode):
    """Two 480 KB grids computed by loop nests before their use: neither the grids nor
    their tangents are cleared on entry; the adjoints, accumulated into, are."""
    (tmp_path / "grid.c").write_text(GRID)
    out = tmp_path / "grid_out.c"
    subprocess.run([sys.executable, "-m", "adgen", mode, "grid.c", "--head",
                    "energy(energy)/(u)", "--size", "u=n", "-o", str(out)],
                   cwd=tmp_path, check=True)
    code = out.read_text()
    zeroed = {name for name in ("h", "g", "hd", "gd", "hb", "gb")
              if f"memset(&{name}, 0, sizeof({name}))" in code}
    assert zeroed == (set() if mode == "--forward" else {"hb", "gb"}), code
    assert "static double h[300][200];" in code and "static double g[300][200];" in code


def test_fortran_work_grids_set_whole_are_not_zeroed(tmp_path):
    """The Fortran test program's grids, set by loop nests and `g = 0.0d0` (flattened
    column-major indices), keep no zeroing in the adjoint; their adjoints do."""
    from pathlib import Path
    src = Path(__file__).resolve().parent.parent / "testsuite" / "fortran" / \
        "work_arrays_set_whole.f90"
    out = tmp_path / "smooth_b.c"
    subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                    "smooth(e)/(u)", "-o", str(out)], cwd=tmp_path, check=True)
    code = out.read_text()
    assert "memset(&h, 0" not in code and "memset(&g, 0" not in code, code
    assert "memset(&hb, 0" in code and "memset(&gb, 0" in code, code
