"""Which comes first along every path, a set or a read of one variable
(adgen.analysis.first_access), on structured C."""
import textwrap

import pytest

from adgen import ir
from adgen.analysis.first_access import READ, SET, first_access
from adgen.driver import Options, load_program, normalize_program, structure_program


def first(tmp_path, body):
    """first_access of variable p in a function with the given body: a set is `p = ...`
    not reading p, a read any other mention of p."""
    path = tmp_path / "prog.c"
    path.write_text("double f(int n, double *a, double *b)\n{\n    double *p = 0;\n"
                    "    double s = 0.0;\n    int i;\n" + textwrap.indent(
                        textwrap.dedent(body), "    ") + "    return s;\n}\n")
    prog = load_program([str(path)], Options())
    normalize_program(prog, ["f"])
    structure_program(prog, ["f"])
    f = prog.functions["f"]
    p = next(s for s in f.locals if s.name == "p")
    stmts = f.body.stmts
    # from the statement after the declaration's initialisation
    start = next(k for k, st in enumerate(stmts) if isinstance(st, ir.Assign) and
                 isinstance(st.lhs, ir.Ref) and st.lhs.sym is p)

    def reads(exprs):
        return any(isinstance(e, ir.Ref) and e.sym is p for x in exprs for e in ir.walk(x))

    def sets(st):
        return isinstance(st, ir.Assign) and isinstance(st.lhs, ir.Ref) and \
            st.lhs.sym is p and not reads([st.rhs])
    return first_access(stmts[start + 1:], sets, reads)


@pytest.mark.parametrize("body, expected", [
    ("p = a;\ns = p[0];\n", SET),
    ("s = p[0];\np = a;\n", READ),
    ("s = 1.0;\n", None),
    ("if (n > 0)\n    p = a;\nelse\n    p = b;\ns = p[0];\n", SET),
    ("if (n > 0)\n    p = a;\ns = p[0];\n", READ),
    ("if (n > 0)\n    s = p[0];\np = a;\n", READ),
    ("for (i = 0; i < n; i++)\n    p = a;\ns = p[0];\n", READ),
    ("for (p = a; p < a + n; p++)\n    s += *p;\n", SET),
    ("for (i = 0; i < n; i++) {\n    s += p[i];\n    p = a;\n}\n", READ),
    ("do {\n    p = a;\n} while (n-- > 0);\ns = p[0];\n", SET),
    ("p = p + 1;\n", READ),
])
def test_first_access(tmp_path, body, expected):
    assert first(tmp_path, body) == expected
