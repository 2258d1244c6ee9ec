"""What the adjoint saves (adgen.transform.tbr): only values the backward sweep reads.

Correctness of every program is checked by the test suite against finite differences;
these tests check that the values that need no saving are indeed not saved, and that
those that do are."""
import re
from pathlib import Path

import adgen

SUITE = Path(__file__).resolve().parent.parent / "testsuite" / "c"


def function_text(code, name):
    """The definition of one generated function."""
    m = re.search(r"^[^\n;]*\b" + re.escape(name) + r"\([^;{]*\)\n\{.*?^\}", code,
                  re.S | re.M)
    assert m, f"{name} not generated"
    return m.group(0)


def test_locals_are_saved_only_where_their_old_value_is_read():
    code = adgen.differentiate("""
        #include <math.h>
        double lse(int n, const double *x)
        {
            double mx = x[0], s = 0.0;
            int i;
            for (i = 1; i < n; i++)
                if (x[i] > mx) mx = x[i];
            for (i = 0; i < n; i++)
                s = s + exp(x[i] - mx);
            return log(s) + mx;
        }
        double twice(int n, const double *x)
        {
            double t = 1.0;
            int i;
            for (i = 0; i < n; i++)
                t = t * lse(n, x) + x[i];
            return t;
        }
    """, head="twice(twice)/(x)")
    fwd = function_text(code, "lse_fwd")
    # s is set before it is read and nothing reads its old value: no push, no undoing;
    # only its final value travels to the backward sweep (log(s) reads it)
    assert fwd.count("adgen_push(&s") == 1
    assert "s = s -" not in function_text(code, "lse_bwd")
    # mx is compared in the forward sweep, but its value before `mx = x[i]` is the one the
    # backward sweep of the max must see again: saved
    assert "adgen_push(&mx" in fwd
    # t = t * lse(...) + x[i]: the product's adjoint reads the old t
    assert "adgen_push(&t" in function_text(code, "twice_b")


def test_a_later_update_of_saved_elements_is_not_undone():
    code = adgen.differentiate(str(SUITE / "saved_elements.c"),
                               head="saved_elements(out)/(a x)")
    # y[i] = 0 then y[i] += ...: the first write's save covers the updates
    assert not re.search(r"y\[i\] = y\[i\] -", function_text(code, "matvec_bwd"))
    # the packed triangle: y[0..n-1] set by one loop, updated by the next
    assert not re.search(r"y\[j\] = y\[j\] -", function_text(code, "lower_bwd"))
    # the recurrence reads y in its backward sweep: every overwrite restored (the first
    # loop's, one element per iteration, as one block)
    recur = function_text(code, "recur_bwd")
    assert recur.count("adgen_pop(&y[i]") == 1
    assert "adgen_pop(&y[0], (size_t)count * sizeof(double));" in recur
    # the update reaches y[n-1], which the first loop did not set: stored, not undone
    # (subtracting the increment again would round)
    partial = function_text(code, "partial_bwd")
    assert not re.search(r"y\[i\] = y\[i\] -", partial)
    assert "adgen_pop(&y[" in partial
    # a local array's first values are never needed
    head = function_text(code, "saved_elements_b")
    # xs is overwritten every step (one element per iteration, as one block)...
    assert "adgen_push(&xs[0], (size_t)n * sizeof(double));" in head
    # ...but not when first set from x
    assert head.count("adgen_push(&xs") == 1


def test_first_values_of_local_structs_are_not_saved():
    code = adgen.differentiate("""
        #include <math.h>
        struct state { double x[3]; double m[2][2]; double e; };
        static double step(struct state s, double c)
        {
            s.x[1] = s.x[1] * c;
            return s.x[1] + s.m[1][0] * s.e;
        }
        double run(const double *p)
        {
            struct state a, b;
            int i;
            for (i = 0; i < 3; i++)
                a.x[i] = p[i];
            a.m[0][0] = p[0]; a.m[0][1] = p[1]; a.m[1][0] = p[2]; a.m[1][1] = p[0];
            a.e = sin(p[1]);
            b = a;
            b.e = b.e * b.x[2];
            return step(b, p[0]) + b.e * a.e;
        }
    """, head="run(run)/(p)")
    head = function_text(code, "run_b")
    # a and b, fresh locals, are set field by field (b by the copy) before anything reads
    # them: nothing they held before is needed
    assert not re.search(r"adgen_push\(&a\.", head)
    assert not re.search(r"adgen_push\(&b\.(x|m)", head)
    # b.e = b.e * b.x[2] overwrites the value its own adjoint reads: saved
    assert "adgen_push(&b.e" in head
    # the callee changes its copy of s (a local of its own, s_copy, set on entry): only
    # the element it overwrites after reading it is saved
    fwd = function_text(code, "step_fwd")
    assert re.findall(r"adgen_push\(&s(?:_copy)?\.[^,]*", fwd) == ["adgen_push(&s_copy.x[1]"]


def test_fresh_memory_written_at_computed_indices_is_not_saved():
    code = adgen.differentiate(str(SUITE / "fresh_computed_index.c"), head="kept(kept)/(x)")
    head = function_text(code, "kept_b")
    # t is fresh memory in each iteration and u a fresh local: what the first write of an
    # element (at an index no polynomial of the counters gives) overwrites is never read
    assert "adgen_push(&t[" not in head
    assert head.count("adgen_push(&u[") == 1
    # the second write overwrites the value its own adjoint reads: saved
    assert re.search(r"adgen_push\(&u\[idx\[i\]\][^;]*;\n\s*u\[idx\[i\]\] = u\[idx", head)


def test_a_callee_filling_fresh_memory_of_its_caller_saves_nothing_there():
    code = adgen.differentiate("""
        #include <math.h>
        static void twice(double c, const double *x, double *r)
        {
            r[0] = x[0];
            r[1] = sin(x[1]);
            r[0] = r[0] * c;
        }
        static void rotate(double c, const double *x, double *r)
        {
            r[0] = c * x[0] - sin(c) * x[1];
            r[1] = sin(c) * x[0] + c * x[1];
        }
        double run(int n, const double *p)
        {
            double s = 0.0, a[2], b[2];
            int i;
            twice(p[1], p, b);
            for (i = 0; i < n; i++) {
                rotate(p[i], p, a);
                s = s + a[0] * a[1] * b[0];
            }
            return s + b[0] * b[1];
        }
    """, head="run(run)/(p)", sizes={"p": "n"})
    # twice is handed b, a local array nothing has set: its first writes there need no
    # saving, only the one overwriting a value its own backward sweep reads
    fwd = function_text(code, "twice_fwd")
    assert re.findall(r"adgen_push\(&r\[\d\]", fwd) == ["adgen_push(&r[0]"]
    # in the loop, what rotate overwrites was read by the iteration before: saved
    assert "adgen_push(&r[0]" in function_text(code, "rotate_fwd")


def test_explain_names_each_choice_with_its_line(tmp_path):
    import subprocess
    import sys
    src = tmp_path / "m.c"
    src.write_text("""#include <math.h>
double walk(int n, const double *x)
{
    double s = 0.0, p = 1.0;
    int i, k = 0;
    for (i = 0; i < n; i++) {
        s = s + x[k];
        p = p * sin(s);
        k = k + 2;
    }
    return p;
}
""")
    r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(src), "--explain",
                        "-o", str(tmp_path / "m_b.c")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    # an integer step is undone exactly; a floating-point sum is stored (undoing it would
    # round)
    assert f"{src}:9: walk: k: not stored (undone by k = k - 2)" in lines
    assert f"{src}:7: walk: s: stored (the backward sweep reads the value this overwrites)" \
        in lines
    assert f"{src}:8: walk: p: stored (the backward sweep reads the value this overwrites)" \
        in lines
    assert f"{src}:6: walk: trip count: not stored (computed again from the loop's bounds)" \
        in lines


def explain(tmp_path, name, head):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(SUITE / name), "--head", head,
                        "--explain", "-o", str(tmp_path / "out_b.c")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout, (tmp_path / "out_b.c").read_text()


def test_scratch_refilled_from_unchanged_values_is_recomputed(tmp_path):
    lines, code = explain(tmp_path, "recompute_scratch.c", "scratch_energy(e)/(x mu w)")
    # a call and an inline loop refill the scratch arrays at the top of each iteration
    assert "scratch_energy: diff: recomputed (filled again by line 42 at the start of each " \
        "backward iteration, 1 operation per element)" in lines
    assert "scratch_energy: scaled: recomputed (filled again by line 43" in lines
    assert "difference: out[t]: not stored (recomputed: " in lines
    assert "split mode (what it fills is recomputed, not stored)" in lines
    # nothing of either array is pushed; the backward iterations call the refill again
    assert "adgen_push(&out" not in code and "adgen_push(&scaled" not in code
    bwd = function_text(code, "scratch_energy_b").split("/* backward sweep */")[1]
    assert "difference(d, &x[i * d], &mu[j * d], diff);" in bwd


def test_recomputation_does_not_depend_on_how_the_pointer_is_spelled(tmp_path):
    """`&diff[0]` and `diff` are the same memory: the refill is recomputed either way, and
    the adjoint stores the same bytes."""
    import subprocess
    import sys
    program = (SUITE / "recompute_scratch.c").read_text()
    calls = ("difference(d, &x[i * d], &mu[j * d], diff);", "weighted_sq(d, scaled, w)")
    assert all(c in program for c in calls)
    spelled = program.replace(calls[0], "difference(d, &x[i * d], &mu[j * d], &diff[0]);") \
        .replace(calls[1], "weighted_sq(d, &scaled[0], w)")
    reports = []
    for name, text in (("plain.c", program), ("spelled.c", spelled)):
        (tmp_path / name).write_text(text)
        r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(tmp_path / name),
                            "--head", "scratch_energy(e)/(x mu w)", "--explain",
                            "--stack-report", "-o", str(tmp_path / "out_b.c")],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert f"{name}:42: scratch_energy: " in r.stdout and "recomputed (filled again by " \
            "line 42" in r.stdout, r.stdout
        reports.append([line for line in (r.stdout + r.stderr).splitlines()
                        if "stack:" in line])
    assert reports[0] == reports[1] and reports[0], reports


def test_refills_that_would_differ_in_the_backward_sweep_are_stored(tmp_path):
    lines, _ = explain(tmp_path, "recompute_refused.c", "refused(e)/(x w)")
    assert "recomputed" not in lines
    for line, what in ((32, "carried[t]"),      # read before the refill in the iteration
                       (35, "growing[t]"),      # the elements written change
                       (38, "from_state[t]"),   # reads state, changed later in the iteration
                       (43, "costly[t]")):      # exp: dearer than a push and a pop
        assert f"recompute_refused.c:{line}: refused: {what}: stored (the backward sweep " \
            "reads this memory)" in lines


def test_scalar_temporaries_of_cheap_values_are_recomputed(tmp_path):
    lines, code = explain(tmp_path, "recompute_scalars.c", "scalar_temps(e)/(x w state)")
    src = "recompute_scalars.c"
    # a, b, the argument of squash(b * a), p, which only q's recomputation reads, and t,
    # whose factor acc the backward sweep restores anyway
    for line, name in ((29, "a"), (30, "b"), (31, "arg"), (33, "p"), (34, "q"), (41, "t")):
        assert f"{src}:{line}: scalar_temps: {name}: recomputed (set again by line {line} " \
            "at the start of each backward iteration" in lines
    for line, name in ((39, "u"),       # acc, a term of it, would be stored instead
                       (44, "c"),       # reads state[i], changed later in the iteration
                       (48, "g"),       # exp: dearer than a push and a pop
                       (51, "last"),    # read after the loop
                       (54, "h"),       # reads scale, changed later in the iteration
                       (60, "r")):      # read before it is set, in the next iteration
        assert f"{src}:{line}: scalar_temps: {name}: stored (the backward sweep reads the " \
            "value this overwrites)" in lines
    for name in ("a", "b", "arg", "p", "q", "t"):
        assert f"adgen_push(&{name}," not in code and f"adgen_pop(&{name}," not in code
    bwd = function_text(code, "scalar_temps_b").split("/* backward sweep */")[1]
    assert bwd.index("p = x[i] * 0.5;") < bwd.index("q = p + w[i];")


def test_integer_locals_computed_from_the_counter_are_recomputed(tmp_path):
    lines, code = explain(tmp_path, "recompute_index_locals.c", "ring(e)/(u w)")
    src = "recompute_index_locals.c"
    for line, name in ((17, "left"), (18, "right")):
        assert f"{src}:{line}: ring: {name}: recomputed (set again by line {line} at the " \
            "start of each backward iteration" in lines
        assert f"adgen_push(&{name}," not in code
    # carried from one iteration to the next: stored
    assert f"{src}:22: ring: k: stored (the backward sweep reads the value this " \
        "overwrites)" in lines
    bwd = function_text(code, "ring_b").split("/* backward sweep */")[1]
    assert "left = (i + n - 1) % n;" in bwd


def test_branches_on_loop_counters_are_evaluated_again(tmp_path):
    lines, code = explain(tmp_path, "branch_on_counters.c", "banded(y)/(x)")
    src = "branch_on_counters.c"
    for line in (18, 20, 23, 25):
        assert f"{src}:{line}: banded: branch taken: not stored (its test is evaluated " \
            "again" in lines
    # m changes in the loop: which branch was taken is stored
    assert f"{src}:28: banded: branch taken: stored" in lines
    bwd = function_text(code, "banded_b").split("/* backward sweep */")[1]
    assert bwd.count("adgen_pop(&branch") == 1
    assert "if (i % 2 == 0) {" in bwd and "if (j == i) {" in bwd


def test_split_mode_locals_set_again_instead_of_stored(tmp_path):
    lines, code = explain(tmp_path, "split_exit_values.c", "pose_error(e)/(cam pts)")
    src = "split_exit_values.c"
    # pointers into the caller's array, values of unchanged parameters and memory, and
    # cheap values of those and of the locals the backward sweep receives (w from g)
    for line, name in ((19, "shift"), (20, "scale"), (21, "gain"), (22, "last"), (36, "u"),
                       (37, "v"), (38, "w")):
        assert f"{src}:{line}: residual: {name} (final value): not stored (set again by " \
            f"line {line} when the backward sweep starts)" in lines
    # the locals of one branch, where the backward sweep enters it
    for line, name, which in ((44, "a", "true"), (47, "b", "false")):
        assert f"{src}:{line}: residual: {name} (final value): not stored (set again by " \
            f"line {line} when the backward sweep enters the {which} branch of line 42)" \
            in lines
    fwd, bwd = function_text(code, "residual_fwd"), function_text(code, "residual_bwd")
    for name in ("shift", "shiftb", "scale", "scaleb", "gain", "last", "u", "v", "w", "a",
                 "b"):
        assert f"adgen_push(&{name}," not in fwd and f"adgen_pop(&{name}," not in bwd
    assert "shiftb = &camb[3];" in bwd and "scaleb = camb + 1;" in bwd
    branch = bwd.split("if (branch) {")[1]
    assert branch.index("a = x[1] / d2;") < branch.index("} else {") < \
        branch.index("b = gain * x[2];")
    # first reads memory the helper changes afterwards, twice is set twice, g calls exp, d2
    # costs more than a push and a pop: their final values travel on the stack
    for name in ("first", "twice", "g", "d2"):
        assert f"{name} (final value)" not in lines
        assert f"adgen_push(&{name}, sizeof({name}));\n" in fwd.split("result = r;")[1]


def test_the_passes_settle_when_a_comparison_reads_a_temporary(monkeypatch):
    """fmax of a call's result: the backward sweep compares the values again to take the
    adjoint of the branch fmax took. A temporary made anew by every pass of the reverse
    transform, taken for a new value each time, once kept the passes from settling (50 of
    them, on every such program)."""
    from adgen.transform.adjoint import ReverseTransform
    passes = []
    scan = ReverseTransform.scan_backward_reads
    monkeypatch.setattr(ReverseTransform, "scan_backward_reads",
                        lambda self: passes.append(1) or scan(self))
    code = adgen.differentiate("""
        #include <math.h>
        double g(double a) { return sin(a) * a; }
        double f(int n, const double *x)
        {
            return fmax(0.75 / (2.0 + x[0] * x[0]), g(x[1]) * x[2]);
        }
    """, head="f(f)/(x)")
    f_b = function_text(code, "f_b")
    taken = f_b.index("if (0.75 / (2.0 + x[0] * x[0]) >= g_result * x[2]")
    assert taken < f_b.index("} else {") < f_b.index("g_resultb = g_resultb + fb * x[2];")
    assert len(passes) <= 4, len(passes)


def test_the_passes_settle_when_a_rule_is_given_temporary_adjoints(monkeypatch):
    """cblas_dscal of an active weight into z + 1: its rule routine gets the adjoint of the
    weight in a temporary (&alphab) and that of z + 1 in a local array. Both are made anew
    by every pass; read as memory of the program, they kept the passes from settling (50
    of them: now an internal error) and made one fuzz program take 90 s."""
    from adgen.transform.adjoint import ReverseTransform
    passes = []
    scan = ReverseTransform.scan_backward_reads
    monkeypatch.setattr(ReverseTransform, "scan_backward_reads",
                        lambda self: passes.append(1) or scan(self))
    code = adgen.differentiate("""
        #include <math.h>
        #include <cblas.h>
        void f(int n, const double *x, double *z)
        {
            int i;
            for (i = 0; i < n; i++) {
                cblas_dscal(3, 0.5 * atan(x[i]), z + 1, 1);
                z[i] = 0.75 * x[i];
            }
        }
    """, head="f(z)/(x z)", sizes={"x": "n", "z": "n"})
    assert "cblas_dscal_b(3, " in function_text(code, "f_b")
    assert len(passes) <= 4, len(passes)


def test_an_array_handed_to_a_sweep_is_not_read_by_the_call():
    # r is updated linearly by scale: no backward statement reads a value of r. Passing r
    # to scale_bwd reads no element of it (what scale_bwd reads is scanned in scale_bwd)
    code = adgen.differentiate("""
        static void scale(int n, double *y)
        {
            int i;
            for (i = 0; i < n; i++)
                y[i] += 0.1 * y[0];
        }
        void f(int n, const double *x, double *out)
        {
            double r[16], s = 0.0;
            int i;
            for (i = 0; i < n; i++)
                r[i] = x[i] * x[i];
        #pragma adgen nocheckpoint
            scale(n, r);
            for (i = 0; i < n; i++)
                s += r[i];
            out[0] = s;
        }
    """, head="f(out)/(x)")
    assert "scale_bwd(n, r, rb);" in function_text(code, "f_b")
    assert "adgen_push" not in function_text(code, "scale_fwd")
    assert "adgen_pop" not in function_text(code, "scale_bwd")


def test_an_update_reading_its_own_array_passes_its_adjoint_through():
    # y[j] += 0.1 * y[i] may read y[j] itself (i == j): its adjoint is held in a
    # temporary for the term, and left in place, not zeroed and added back
    code = adgen.differentiate("""
        void f(int n, double *y)
        {
            int i, j;
            for (i = 0; i < n; i++)
                for (j = 0; j < n; j++)
                    y[j] += 0.1 * y[i];
        }
    """, head="f(y)/(y)")
    bwd = function_text(code, "f_b")
    assert re.search(r"tempb = yb\[j\];\n\s*yb\[i\] = yb\[i\] \+ 0\.1 \* tempb;", bwd), bwd
    assert "yb[j] = 0.0;" not in bwd


def test_a_callee_run_again_needs_none_of_its_locals_saved():
    """The backward sweep runs `step` again (joint mode) before its adjoint: the locals of
    that run (a flux array, a message's text) are set by it before they are read, so the
    forward sweep stores none of them for it."""
    code = adgen.differentiate(str(SUITE.parent / "fortran" / "physics_idioms.f90"),
                               head="run(cost)/(h u)")
    fwd = function_text(code, "step_fwd")
    assert "adgen_push(&flux" not in fwd and "adgen_push(&text" not in fwd
    # what the step's adjoint does read is still stored: h before the update
    assert "adgen_push(&h[0]" in fwd
