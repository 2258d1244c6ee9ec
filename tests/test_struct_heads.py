"""Heads whose independents and dependents the harness's drivers do not pass: structs
passed by pointer (C; the Fortran derived types are in test_fortran.py), whose derivative
is a struct of the same type, each floating-point field the derivative of that field; and
variable-length 2-D arrays (`double u[n][m]`), whose derivative has the same type."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "tests" / "c_struct_head"


def run_case(tmp_path, case, source, head, signature, primal_object=False, flags=(),
             adgen_flags=()):
    """Differentiates tests/CASE/SOURCE for HEAD (or each of a list of heads) in both
    modes (the output compiled with -Werror), checks the adjoint's signature (each of a
    list), links the case's driver.c with the derivative routines (and the primal's
    object) and runs it: it prints PASS when the derivatives agree with finite differences
    of the primal and with each other. flags go to every compilation and the link (a
    sanitizer), adgen_flags to adgen (a stack mode)."""
    case = ROOT / "tests" / case
    heads = [head] if isinstance(head, str) else head
    signatures = [signature] if isinstance(signature, str) else signature
    objects = []
    for mode, suffix in (("--reverse", "b"), ("--forward", "d")):
        for h in heads:
            out = tmp_path / f"{Path(source).stem}_{h.split('(')[0]}_{suffix}.c"
            proc = subprocess.run([sys.executable, "-m", "adgen", mode, str(case / source),
                                   "--head", h, "-o", str(out), *adgen_flags],
                                  capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr
            objects.append(out.with_suffix(".o"))
    if primal_object:
        objects.append(tmp_path / "primal.o")
    for obj in objects:
        src = case / source if obj.name == "primal.o" else obj.with_suffix(".c")
        cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", *flags, "-c",
                             str(src), "-o", str(obj)], capture_output=True, text=True)
        assert cc.returncode == 0, cc.stderr
    adjoints = "".join(o.with_suffix(".c").read_text() for o in objects[:len(heads)])
    for sig in signatures:
        assert sig in adjoints
    exe = tmp_path / "driver"
    cc = subprocess.run(["gcc", "-std=c99", "-O2", *flags, "-I", str(case), "-o", str(exe),
                         str(case / "driver.c")] + [str(o) for o in objects] + ["-lm"],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and "PASS" in run.stdout, run.stdout + run.stderr


def test_struct_head_tangent_and_adjoint(tmp_path):
    """step(s)/(s) for a struct holding an array of structs with array fields: the
    tangent and the adjoint agree with each other (dot-product test) and with central
    finite differences of the primal (tests/c_struct_head/driver.c)."""
    run_case(tmp_path, "c_struct_head", "system.c", "step(s)/(s)",
             "void step_b(System *s, System *sb, double dt)")


def test_struct_by_value_head_tangent_and_adjoint(tmp_path):
    """misfit(misfit)/(p y) with p a struct of model parameters passed by value, which the
    head changes (its own copy) and passes by value to a helper: the adjoint returns p's
    gradient through `Params *pb`, the tangent takes `Params pd` by value, as for a
    floating-point parameter; both agree with finite differences and with each other
    (tests/c_struct_value_head/driver.c)."""
    run_case(tmp_path, "c_struct_value_head", "misfit.c", "misfit(misfit)/(p y)",
             "void misfit_b(Params p, Params *pb, int n, const double *t, const double *y, "
             "double *yb, double misfitb)", primal_object=True)


def test_const_member_struct_head(tmp_path):
    """energy(energy)/(p x) with p a pointer to a struct with const members and `T *const`
    fields: the derivative struct has the same type and the adjoint writes its members, so
    the output defines the type without those const qualifiers (the output did not
    compile); both modes agree with finite differences and with each other
    (tests/c_const_struct_head/driver.c), under AddressSanitizer."""
    run_case(tmp_path, "c_const_struct_head", "model.c", "energy(energy)/(p x)",
             "void energy_b(const Params *p, Params *pb, const double *x, double *xb, "
             "double energyb)", primal_object=True,
             flags=["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"])


def test_output_types_without_their_own_const(tmp_path):
    """The output's copy of the program's types: members and typedefs lose their own const
    (`double *const p` is `double *p`), what they point to keeps it (`const double *w`),
    declarators sharing a struct defined in place still share it (one type, `a, b`); the
    output compiles with -Werror."""
    src = tmp_path / "types.c"
    src.write_text(
        "typedef const double cd;\n"
        "typedef struct { struct { const int k; double *const p; } a, b;\n"
        "                 const double *const w; const char *const names[2]; cd c; } Outer;\n"
        "double f(const double *x)\n{\n    double t[2];\n"
        "    Outer o = { { 2, t }, { 3, t + 1 }, x, { \"u\", \"v\" }, 1.5 };\n"
        "    o.a.p[0] = x[0] * o.c;\n    o.b.p[0] = x[1] * o.w[0];\n"
        "    return o.a.p[0] * o.b.p[0] * o.a.k * o.b.k;\n}\n")
    out = tmp_path / "types_b.c"
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                           "f(f)/(x)", "-o", str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    types = text[text.index("/* Types of the source program. */"):text.index("} Outer;")]
    assert "typedef double cd;" in types
    assert re.search(r"int k;\s*double \*p;\s*\} a, b;", types), types
    assert "const double *w;" in types and "const char *names[2];" in types, types
    cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c", str(out),
                         "-o", str(tmp_path / "types_b.o")], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr


def test_vla_head_tangent_and_adjoint(tmp_path):
    """relax(u energy)/(u) with u a `double u[n][m]` parameter: the derivative routines
    take `double (*ub)[m]`, agree with central finite differences of the primal and with
    each other (tests/c_vla_head/driver.c); the energy's seed is consumed."""
    run_case(tmp_path, "c_vla_head", "grid.c", "relax(u energy)/(u)",
             "void relax_b(int n, int m, double (*u)[m], double (*ub)[m], double w, "
             "double *energy, double *energyb)", primal_object=True)


@pytest.mark.parametrize("stack", ["heap", "static"])
def test_global_heads(tmp_path, stack):
    """step(state energy trace)/(gain state force), whose independents and dependents are
    globals but force: their derivatives are globals of the output (`gainb`, `stateb[4]`)
    that the caller sets and reads. The tangent agrees with central finite differences of
    the primal, the adjoint with the tangent; a pure independent's adjoint is set, the
    seeds of pure dependents consumed, the primal outputs left as the primal leaves them
    (tests/c_global_head/driver.c), under AddressSanitizer."""
    run_case(tmp_path, "c_global_head", "model.c",
             "step(state energy trace)/(gain state force)",
             "void step_b(double dt, const double *force, double *forceb)",
             primal_object=True,
             flags=["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"],
             adgen_flags=["--stack", stack] + (["--stack-size", "65536"] if stack == "static"
                                               else []))


HANDLE_HEADS = ["energy(energy)/(m u)", "step(s)/(m s)", "fluxes(out)/(m u)",
                "weighted(weighted)/(v)"]


@pytest.mark.parametrize("stack", ["heap", "static"])
def test_handle_heads(tmp_path, stack):
    """Independents and dependents that are handles, structs holding pointers to the
    arrays (a mesh with a nested material handle and integer data, a state updated in
    place, a pure output whose total accumulates onto its read value, a view passed by
    value): the caller's derivative struct has the same type, its pointers leading to the
    derivative arrays; pure inputs' adjoints are set, through every pointer (the driver
    fills them with garbage first). Both modes agree with each other and with central
    finite differences (tests/c_handle_head/driver.c), under AddressSanitizer, with either
    stack."""
    run_case(tmp_path, "c_handle_head", "model.c", HANDLE_HEADS,
             ["void energy_b(const Mesh *m, Mesh *mb, const double *u, double *ub, "
              "double energyb)", "void weighted_b(Vec v, Vec *vb, double weightedb)",
              "void fluxes_b(const Mesh *m, Mesh *mb, const double *u, double *ub, "
              "State *out, State *outb)"],
             flags=["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"],
             adgen_flags=["--stack", stack] + (["--stack-size", "65536"] if stack == "static"
                                               else []))


def test_handle_head_refusals(tmp_path):
    """What a handle independent or dependent cannot be, refused at the parameter: a
    linked structure, a pointer to several structs holding pointers, a head that changes
    the pointers its caller's derivative struct mirrors."""
    cases = {
        "typedef struct Node { double v; struct Node *next; } Node;\n"
        "double total(const Node *p)\n{\n    return p->v + p->next->v;\n}\n":
            "a linked structure",
        "typedef struct { int n; double *x; } Vec;\n"
        "double total(const Vec *p)\n{\n    return p[0].x[0] + p[1].x[0];\n}\n":
            "'p' may point to several structs holding pointers",
        "typedef struct { int n; double *x; } Vec;\n"
        "double total(Vec *p, double *y)\n{\n    p->x = y;\n    return p->x[0];\n}\n":
            "may change the pointer 'p->x'",
    }
    for k, (text, message) in enumerate(cases.items()):
        src = tmp_path / f"m{k}.c"
        src.write_text(text)
        proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                               "total(total)/(p)", "-o", str(tmp_path / f"m{k}_b.c")],
                              capture_output=True, text=True)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        assert f"{src}:2:" in proc.stderr and message in proc.stderr, proc.stderr


def test_head_replacing_a_callers_block(tmp_path):
    """run(run)/(q) frees the block its Model argument holds and allocates a new one into
    it, and allocates and frees scratch in a loop: after the adjoint, as after the primal,
    the caller's struct holds the new block with its final values, the old one is freed,
    nothing is freed twice or read after being freed (AddressSanitizer, LeakSanitizer),
    and the derivatives agree with finite differences (tests/c_realloc_head/driver.c)."""
    run_case(tmp_path, "c_realloc_head", "model.c", "run(run)/(q)",
             "void run_b(Model *m, const double *q, double *qb, double runb)",
             primal_object=True,
             flags=["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"])


def test_handle_sizes(tmp_path):
    """--size names a handle's pointer field as C names it (`h->sub->x`, nested too) and
    sets its length; a field never read is not zeroed (its derivative pointer may be NULL);
    an index used only under a condition in a callee still leaves a pointer to one struct;
    a --size naming nothing of the program is reported (a warning), not ignored silently."""
    src = tmp_path / "h.c"
    src.write_text(
        "typedef struct { double *x; double *unused; } Sub;\n"
        "typedef struct { int n; Sub *sub; } H;\n"
        "static double w(const H *h, int i)\n{\n    double s = 0.0;\n"
        "    if (i > 0)\n        s += h->sub->x[0];\n    return s;\n}\n"
        "double f(const H *h)\n{\n    double s = 0.0;\n"
        "    for (int i = 0; i < h->n; i++)\n        s += w(h, i) * h->sub->x[i];\n"
        "    return s;\n}\n")

    def run(*sizes):
        out = tmp_path / "h_b.c"
        proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                               "f(f)/(h)", "-o", str(out), *sizes],
                              capture_output=True, text=True)
        return proc, out

    proc, out = run("--size", "h->sub->x=h->n+3")
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "memset(hb->sub->x, 0, (h->n + 3) * sizeof" in text, text
    assert "unused" not in text.split("forward sweep")[0]
    proc, _ = run("--size", "h->sub->y=4")
    assert proc.returncode == 0 and f"{src}: warning: --size h->sub->y: no parameter of " \
        "that name" in proc.stderr, proc.stderr


def test_pure_output_struct_array_read_first(tmp_path):
    """relax(p)/(x) with p an array of structs of numbers whose input values the head reads
    (p[i].a = p[i].a * x[i] + p[i].b): those values are no independent, so the tangent
    starts p's tangent at zero (the caller's garbage ignored) and the adjoint consumes p's
    seeds; the two agree (dot-product test). The struct fields are nodes of their own: the
    read was missed when only the array's node was asked."""
    src = tmp_path / "relax.c"
    src.write_text(
        "typedef struct { double a, b; } Pt;\n"
        "void relax(int n, const double *x, Pt *p)\n{\n    int i;\n"
        "    for (i = 0; i < n; i++) {\n        p[i].a = p[i].a * x[i] + p[i].b;\n"
        "        p[i].b = x[i] * x[i];\n    }\n}\n")
    outs = []
    for mode, suffix in (("--forward", "d"), ("--reverse", "b")):
        out = tmp_path / f"relax_{suffix}.c"
        proc = subprocess.run([sys.executable, "-m", "adgen", mode, str(src), "--head",
                               "relax(p)/(x)", "--size", "p=n", "-o", str(out)],
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        outs.append(str(out))
    driver = tmp_path / "driver.c"
    driver.write_text(r"""
#include <math.h>
#include <stdio.h>
typedef struct { double a, b; } Pt;
void relax_d(int n, const double *x, const double *xd, Pt *p, Pt *pd);
void relax_b(int n, const double *x, double *xb, Pt *p, Pt *pb);
int main(void)
{
    enum { N = 4 };
    double x[N] = {0.3, -0.7, 1.1, 0.5}, xd[N] = {0.2, 0.9, -0.4, 0.6}, xb[N];
    Pt p[N], pd[N], pb[N], seed[N];
    double lhs = 0.0, rhs = 0.0;
    int i, bad = 0;
    for (i = 0; i < N; i++) { p[i].a = 1.0 + i; p[i].b = 0.5 - i; pd[i].a = pd[i].b = 1e30; }
    relax_d(N, x, xd, p, pd);
    for (i = 0; i < N; i++) {
        p[i].a = 1.0 + i; p[i].b = 0.5 - i;
        seed[i].a = pb[i].a = 0.1 * i - 0.2; seed[i].b = pb[i].b = 0.3 + 0.05 * i;
        xb[i] = 1e30;
    }
    relax_b(N, x, xb, p, pb);
    for (i = 0; i < N; i++) {
        lhs += seed[i].a * pd[i].a + seed[i].b * pd[i].b;
        rhs += xb[i] * xd[i];
        bad |= pb[i].a != 0.0 || pb[i].b != 0.0;
    }
    if (bad || !(fabs(lhs - rhs) <= 1e-12 * (1.0 + fabs(lhs)))) {
        printf("FAIL %g %g %d\n", lhs, rhs, bad);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
""")
    exe = tmp_path / "driver"
    cc = subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-o", str(exe),
                         str(driver), *outs, "-lm"], capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0 and "PASS" in run.stdout, run.stdout + run.stderr


ROW_POINTER_HEADS = ["tri_form(tri_form)/(L x)", "relax_rows(u energy)/(u)",
                     "outer_rows(out)/(x)"]


@pytest.mark.parametrize("stack", ["heap", "static"])
def test_row_pointer_heads(tmp_path, stack):
    """Independents and dependents that are arrays of row pointers (`double **L`, `double
    *out[]`), each row a block of its own: a ragged triangle read through a helper (its
    rows' adjoints set, each number as it is read, none outside a row: the driver's rows
    have their exact lengths, under AddressSanitizer), a grid relaxed in place (values
    overwritten through the row pointers restored), and a pure output's rows (seeds
    consumed). The derivative routines take `double **Lb` of the same shape; both modes
    agree with each other and with central finite differences
    (tests/c_row_pointers_head/driver.c), with either stack."""
    run_case(tmp_path, "c_row_pointers_head", "model.c", ROW_POINTER_HEADS,
             ["void tri_form_b(int n, double **L, double **Lb, const double *x, double *xb, "
              "double tri_formb)", "void outer_rows_b(int n, const double *x, double *xb, "
              "double **out, double **outb)"],
             primal_object=True,
             flags=["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g"],
             adgen_flags=["--stack", stack] + (["--stack-size", "65536"] if stack == "static"
                                               else []))


def test_row_pointer_head_refusals(tmp_path):
    """What an array of row pointers named in a head cannot be, refused at the parameter
    with the way out: a head that changes the row pointers (the caller's derivative rows
    mirror them), a --size (rows are not counted), a pure output whose input values are
    read (its seeds or tangents could not be consumed), row pointers carrying derivatives
    without being named (no rows of the routine's own), and vector mode."""
    changes = ("double total(double **r, double *y)\n{\n    r[1] = y;\n"
               "    return r[0][0] * r[1][0];\n}\n")
    reads_out = ("void scale(const double *a, double **r)\n{\n"
                 "    r[0][0] = a[0] * r[0][0] * r[0][1];\n}\n")
    internal = ("double total(double **r, double *y)\n{\n    r[0][0] = y[0];\n"
                "    return r[0][0] * y[1];\n}\n")
    cases = [
        (changes, "total(total)/(r)", [], ["may change the row pointers of 'r'"]),
        (changes.replace("r[1] = y", "y[1] = 1.0"), "total(total)/(r)", ["--size", "r=4"],
         ["--size r=...: 'r' is an array of row pointers"]),
        (reads_out, "scale(r)/(a)", [], ["'r' is a dependent whose input values 'scale' reads",
                                        "name it as an independent too"]),
        (reads_out, "scale(r)/(r)", ["--forward", "--vector"],
         ["vector mode: parameter 'r' is an array of row pointers"]),
        (internal, "total(total)/(y)", [], ["parameter 'r' of 'total': the rows it points to "
                                            "carry derivatives"]),
    ]
    for k, (text, head, flags, messages) in enumerate(cases):
        src = tmp_path / f"m{k}.c"
        src.write_text(text)
        for mode in (["--reverse"], ["--forward"]) if "--forward" not in flags else [[]]:
            proc = subprocess.run([sys.executable, "-m", "adgen", *mode, str(src), "--head",
                                   head, *flags, "-o", str(tmp_path / f"m{k}_x.c")],
                                  capture_output=True, text=True)
            assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
            assert f"{src}:1:" in proc.stderr, proc.stderr
            for message in messages:
                assert message in proc.stderr, (mode, proc.stderr)


def test_row_pointer_default_heads(tmp_path):
    """Without --head, row pointers count as the arrays they lead to when adgen chooses
    the heads and their independents and dependents: read, they are independents; written,
    dependents."""
    out = tmp_path / "model_b.c"
    proc = subprocess.run([sys.executable, "-m", "adgen", "--reverse",
                           str(ROOT / "tests" / "c_row_pointers_head" / "model.c"), "-o",
                           str(out)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    for head in ["tri_form(tri_form)/(L x)", "relax_rows(u energy)/(u w energy)",
                 "outer_rows(out)/(x)"]:
        assert f"(head {head})" in text, text
