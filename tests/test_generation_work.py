"""Generation time grows with the program as n log n at most: the work adgen does (IR nodes
and statements its walks visit, a count that does not depend on the machine's load) is
measured over programs of growing size, and the growth from one size to the next must stay
within that of n log n. The seconds themselves are bench/gen_time.py's (`make bench-gen`).

Also here: what keeps the output itself from growing faster than the program (copies of a
function with the same code share one definition; deep expressions computed in pieces)."""
import math
import os
import re
import sys
from pathlib import Path

import pytest

from adgen import cli, ir
from adgen.room import with_room

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
# the benchmark's programs: layered helpers, a nested expression, nested loops
from gen_time import c_expression, c_layered, c_loop_nest, fortran_layered  # noqa: E402

# (work at 2n) / (work at n) may exceed (2n log 2n) / (n log n) by this much (the fixed
# cost of a run, different per size only by rounding, makes small sizes look better)
SLACK = 1.10


def helpers_in_a_chain(n):
    """n helpers, each a loop with math calls calling the one before it once."""
    out = ["#include <math.h>", ""]
    for k in range(n):
        out += [f"static double h{k}(int m, const double *x, double *y, double s)", "{",
                "    double t = s;",
                "    for (int i = 0; i < m; i++) {",
                "        double a = x[i] * t + 1.0;",
                "        y[i] = sin(a) * y[i] + t;",
                "        t = t + 0.5 * cos(y[i]);",
                "    }"]
        if k:
            out.append(f"    t = t + h{k - 1}(m, y, y, t * 0.25);")
        out += ["    return t;", "}", ""]
    out += ["double f(int m, const double *x, double *y)", "{",
            f"    return h{n - 1}(m, x, y, 0.5);", "}"]
    return "\n".join(out) + "\n", "c", "f(f)/(x)"


def statements(n):
    """One function of 2n statements overwriting a scalar and array elements."""
    out = ["double f(int m, const double *x, double *y)", "{", "    double s = x[0];"]
    for k in range(n):
        out += [f"    s = s * x[{k % 3}] + y[{k % 5}];", f"    y[{k % 5}] = sin(s) * 0.5;"]
    out += ["    return s;", "}"]
    return "\n".join(out) + "\n", "c", "f(f)/(x)"


def counted(monkeypatch):
    """Make ir.walk and ir.stmts_walk count what they visit; returns the counter."""
    count = [0]
    walk, stmts_walk = ir.walk, ir.stmts_walk

    def counting_walk(e):
        for x in walk(e):
            count[0] += 1
            yield x

    def counting_stmts_walk(stmts, *rest):
        for s in stmts_walk(stmts, *rest):
            count[0] += 1
            yield s

    monkeypatch.setattr(ir, "walk", counting_walk)
    monkeypatch.setattr(ir, "stmts_walk", counting_stmts_walk)
    return count


def work(monkeypatch, tmp_path, program, mode):
    """What one run visits (adgen MODE on program: (text, suffix, head)), with room for
    the nesting, as the command runs."""
    text, suffix, head = program
    count = counted(monkeypatch)
    path = tmp_path / f"prog{len(text)}.{suffix}"
    path.write_text(text)
    status = with_room(cli._main, [mode, str(path), "--head", head, "-o",
                                   str(tmp_path / "out.c"), "--quiet"])
    assert status == 0
    return count[0]


def check_growth(monkeypatch, tmp_path, shape, sizes, mode):
    works = [work(monkeypatch, tmp_path, shape(n), mode) for n in sizes]
    for (n1, w1), (n2, w2) in zip(zip(sizes, works), zip(sizes[1:], works[1:])):
        bound = n2 * math.log(n2) / (n1 * math.log(n1)) * SLACK
        assert w2 / w1 <= bound, \
            f"{shape.__name__} {mode}: work {w1} at {n1}, {w2} at {n2}: grows " \
            f"{w2 / w1:.2f}x where n log n grows {bound / SLACK:.2f}x (sizes and work: " \
            f"{list(zip(sizes, works))})"


SHAPES = [(helpers_in_a_chain, [5, 10, 20]), (statements, [25, 50, 100]),
          (c_expression, [50, 100, 200])]


@pytest.mark.parametrize("mode", ["--reverse", "--forward"])
@pytest.mark.parametrize("shape,sizes", SHAPES, ids=[s.__name__ for s, _ in SHAPES])
def test_work_grows_as_n_log_n(monkeypatch, tmp_path, shape, sizes, mode):
    check_growth(monkeypatch, tmp_path, shape, sizes, mode)


def test_work_of_nested_loops_grows_as_n_log_n(monkeypatch, tmp_path):
    """Each loop of a nest asks about the statements inside it (whether recompute.py may
    fill it again, whether its sweeps push one element each for block_pushes.py, what its
    loops set for extent.py, what the head's code names): read once per statement, not
    once per loop around it."""
    check_growth(monkeypatch, tmp_path, c_loop_nest, [40, 80, 160], "--reverse")


def test_what_the_loops_of_a_nest_set_is_read_once(monkeypatch):
    """extent.varying_ints (the variables set in loops, whose values guard an exit) reads
    the statements of the outermost loops once, not those of each loop inside again."""
    from adgen.analysis.extent import varying_ints

    def assign(name):
        return ir.Assign(ir.Ref(ir.Symbol(name, ir.INT, "local")), ir.Const("0", ir.INT))

    depth = 60
    body = [assign("bottom")]
    for k in range(depth):
        body = [ir.While(ir.Const("1", ir.INT), ir.Block([assign(f"v{k}")] + body))]
    count = counted(monkeypatch)
    found = varying_ints(body)
    assert {s.name for s in found} == {f"v{k}" for k in range(depth)} | {"bottom"}
    assert count[0] <= 4 * (2 * depth + 1), count[0]


def test_fixed_point_of_a_loop_nest_is_linear_in_its_depth(monkeypatch, tmp_path):
    """The to-be-recorded analysis of scalars flows through a loop to a fixed point, and
    the loop around it again: a loop reached again with what its last fixed point holds
    already is not flowed through again, so each loop of a nest is flowed through a few
    times, not once per iteration of each loop around it."""
    from adgen.transform.tbr import LocalTBR
    counts = {}
    loop = LocalTBR.loop

    def counting_loop(self, body, *rest, **kw):
        counts[id(body)] = counts.get(id(body), 0) + 1
        return loop(self, body, *rest, **kw)

    monkeypatch.setattr(LocalTBR, "loop", counting_loop)
    work(monkeypatch, tmp_path, c_loop_nest(40), "--reverse")
    # the transform's passes run the analysis a few times; each loop is asked a few times
    # in each (a nest of 40 asked each loop about 40 times before)
    assert len(counts) >= 40 and max(counts.values()) <= 8, sorted(counts.values())


@pytest.mark.parametrize("shape", [c_layered, fortran_layered])
def test_work_of_layered_helpers_grows_as_n_log_n(monkeypatch, tmp_path, shape):
    """Helpers calling two or three earlier ones: a callee is copied per calling context
    (where its arguments come from, their activity), not per call path, whose number grows
    exponentially with the depth of the calls."""
    check_growth(monkeypatch, tmp_path, shape, [4, 8, 16], "--reverse")


def test_deep_expression_output_grows_linearly(tmp_path):
    sizes = {}
    for n in (100, 200, 400):
        text, _, head = c_expression(n)
        path = tmp_path / f"deep{n}.c"
        path.write_text(text)
        for mode, suffix in (("--reverse", "b"), ("--forward", "d")):
            out = tmp_path / f"deep{n}_{suffix}.c"
            assert cli.main([mode, str(path), "--head", head, "-o", str(out)]) == 0
            sizes[n, mode] = len(out.read_bytes())
    for mode in ("--reverse", "--forward"):
        assert sizes[400, mode] / sizes[200, mode] < 2.3, sizes
        assert sizes[200, mode] / sizes[100, mode] < 2.3, sizes


@pytest.mark.parametrize("depth", [32, 64])
def test_each_math_call_of_a_nested_expression_is_evaluated_a_few_times(tmp_path, depth):
    """The adjoint of one assignment nested `depth` levels deep (one piece: normalize.py
    cuts only deeper ones) holds each math call's value in a temporary that the partials
    of the levels above read: every call is evaluated a bounded number of times (its
    value, its partial), not once per level above it (depth 32: 320 calls before, for the
    23 of the primal)."""
    text, _, head = c_expression(depth)
    src = tmp_path / "nested.c"
    src.write_text(text)
    out = tmp_path / "nested_b.c"
    assert cli.main(["--reverse", str(src), "--head", head, "-o", str(out)]) == 0
    code = out.read_text()
    adjoint = code[code.index("f_b("):]
    calls = len(re.findall(r"\b(sin|cos|exp)\(", adjoint))
    primal = len(re.findall(r"\b(sin|exp)\(", text))
    assert calls <= 3 * primal, (calls, primal)


COPIES = """\
static double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}
static double twice(int n, const double *a, const double *b) { return 2.0 * dot(n, a, b); }
double f(int n, const double *x, const double *c, double *out)
{
    double p = dot(n, x, c);            /* b passive */
    double q = twice(n, x, x);          /* b active: the same code in each copy below */
    double r = twice(n, x, x);
    double s = twice(n, x, x);
    out[0] = p * q + r * s;
    return out[0];
}
"""


@pytest.mark.parametrize("mode,suffix", [("--reverse", "b"), ("--forward", "d")])
def test_copies_with_the_same_code_share_one_definition(tmp_path, mode, suffix):
    """One copy of a callee per call site (transform/clone.py) keeps the analyses apart;
    the copies whose derivative code comes out the same, the original's or not, and the
    callers that differ only in which of those they call, are one function in the output."""
    src = tmp_path / "copies.c"
    src.write_text(COPIES)
    out = tmp_path / f"copies_{suffix}.c"
    assert cli.main([mode, str(src), "--head", "f(f)/(x)", "-o", str(out)]) == 0
    text = out.read_text()
    defined = re.findall(r"^static \w+ (\w+)\([^;]*$", text, re.M)
    assert len(defined) == len(set(defined)), defined
    dots = [d for d in defined if d.startswith("dot")]
    twices = [d for d in defined if d.startswith("twice")]
    # dot: one for the passive b, one for the active; twice: one
    if mode == "--forward":
        assert len(dots) == 2 and len(twices) == 1, defined
    else:
        assert len({re.sub(r"_(fwd|bwd|b)$", "", d) for d in dots}) == 2, defined
        assert len({re.sub(r"_(fwd|bwd|b)$", "", d) for d in twices}) == 1, defined


def test_stmts_walk_order_and_skip():
    """Parents first, then a for's init, step and body; an if's then, then else; a skipped
    statement leaves out everything inside it; a statement added to a list not yet walked
    is walked."""
    def assign(name):
        return ir.Assign(ir.Ref(ir.Symbol(name, ir.DOUBLE, "local")), ir.Const("0", ir.INT))

    def names(stmts):
        return [s.lhs.sym.name if isinstance(s, ir.Assign) else type(s).__name__
                for s in stmts]

    one = ir.Const("1", ir.INT)
    inner = ir.While(one, ir.Block([assign("w")]))
    skipped = ir.Block([assign("never")])
    tree = [assign("a"),
            ir.If(one, ir.Block([assign("t"), inner]), ir.Block([assign("e")])),
            ir.For([assign("init")], one, [assign("step")],
                   ir.Block([ir.DoWhile(ir.Block([assign("d")]), one), skipped])),
            assign("z")]
    assert names(ir.stmts_walk(tree, {id(skipped)})) == [
        "a", "If", "t", "While", "w", "e", "For", "init", "step", "DoWhile", "d", "z"]
    seen = []
    for s in ir.stmts_walk(tree):
        seen.append(s)
        if s is inner:
            inner.body.stmts.append(assign("added"))
    assert "added" in names(seen)


def test_no_pass_of_the_reverse_transform_repeats_the_one_before(monkeypatch, tmp_path):
    """The reverse transform generates every function again in each pass until what the
    passes carry over settles; a pass that would only repeat the last one is not run (it
    was, to confirm the call modes the last one chose)."""
    from adgen.backend.cgen import render_function
    from adgen.transform.adjoint import ReverseTransform
    passes = []
    scan = ReverseTransform.scan_backward_reads

    def snapshot(self):     # called once a pass, after its functions are generated
        passes.append([render_function(fn) for fns in self.generated.values() for fn in fns])
        return scan(self)

    monkeypatch.setattr(ReverseTransform, "scan_backward_reads", snapshot)
    text, _, head = c_layered(3)
    src = tmp_path / "layered.c"
    src.write_text(text)
    assert cli.main(["--reverse", str(src), "--head", head, "-o", str(tmp_path / "b.c")]) == 0
    assert len(passes) >= 2
    assert all(a != b for a, b in zip(passes, passes[1:])), \
        f"{len(passes)} passes, the last {sum(a == b for a, b in zip(passes, passes[1:]))} " \
        "the same as the one before"


def test_owners_of_memory_are_read_once_per_shape(monkeypatch, tmp_path):
    """Which function owns which memory is asked at every call a caller keeps the state of;
    the answer stays while the memory graph keeps its shape, so each function's own memory
    is read a few times (once per shape), not once per call of the program."""
    from adgen.analysis.activity import Memory
    reads = []
    own_nodes = Memory.own_nodes

    def counting_own_nodes(self, func):
        reads.append(func.name)
        return own_nodes(self, func)

    monkeypatch.setattr(Memory, "own_nodes", counting_own_nodes)
    text, suffix, head = c_layered(8)
    path = tmp_path / f"layered.{suffix}"
    path.write_text(text)
    status = with_room(cli._main, ["--reverse", str(path), "--head", head, "-o",
                                   str(tmp_path / "out.c"), "--quiet"])
    assert status == 0
    assert len(reads) <= 10 * len(set(reads)), (len(reads), len(set(reads)))


def test_what_a_nest_of_loops_assigns_is_read_once(monkeypatch):
    """Each loop of a nest asks what its body assigns (whether its bounds stay, which
    counters are replayed): while the bodies are fixed, the nest is read once between
    them, not once per loop around each statement."""
    from adgen.analysis.loops import assigned_in, fixed_bodies

    def assign(name):
        return ir.Assign(ir.Ref(ir.Symbol(name, ir.DOUBLE, "local")), ir.Const("0", ir.INT))

    depth = 60
    loops, body = [], [assign("bottom")]
    for k in range(depth):
        loop = ir.While(ir.Const("1", ir.INT), ir.Block([assign(f"v{k}")] + body))
        loops.append(loop)
        body = [loop]
    count = counted(monkeypatch)
    with fixed_bodies():
        found = [assigned_in(loop.body.stmts) for loop in loops]
    assert {s.name for s in found[-1]} == {f"v{k}" for k in range(depth)} | {"bottom"}
    assert {s.name for s in found[0]} == {"v0", "bottom"}
    assert count[0] <= 4 * (2 * depth + 1), count[0]


def test_compiled_templates_are_kept_for_the_next_run(monkeypatch, tmp_path):
    """Compiling the Jinja templates is most of a small run's time: a run keeps the
    compiled templates in Jinja's cache directory of the user's own (in the temporary
    directory) and the next run reads them from there, writing the same output. A damaged
    entry is compiled again; a cache directory that is not a safe one of the user's is not
    used, and the run goes on."""
    import tempfile
    from adgen.backend import cgen

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def fresh_run(out):
        # a new process's state: no environment, no template loaded yet
        monkeypatch.setattr(cgen, "_ENV", None)
        monkeypatch.setattr(cgen, "_FUNCTION_TEMPLATE", None)
        text, _, head = c_layered(3)
        src = tmp_path / "layered.c"
        src.write_text(text)
        assert cli.main(["--reverse", str(src), "--head", head, "-o", str(out)]) == 0
        return out.read_text().split("\n", 3)[3]      # (after the command line)

    first = fresh_run(tmp_path / "first.c")
    kept = sorted(tmp_path.glob("_jinja2-cache-*/adgen-*.cache"))
    assert kept, sorted(p.name for p in tmp_path.iterdir())
    loaded = []
    load = cgen._TemplateCache.load_bytecode

    def counting_load(self, bucket):
        load(self, bucket)
        loaded.append(bucket.code is not None)

    monkeypatch.setattr(cgen._TemplateCache, "load_bytecode", counting_load)
    assert fresh_run(tmp_path / "second.c") == first
    assert loaded and all(loaded), loaded
    monkeypatch.setenv("ADGEN_NO_TEMPLATE_CACHE", "1")
    assert fresh_run(tmp_path / "uncached.c") == first
    monkeypatch.delenv("ADGEN_NO_TEMPLATE_CACHE")
    for entry in kept:      # damaged entries: compiled again
        entry.write_bytes(entry.read_bytes()[:40])
    assert fresh_run(tmp_path / "damaged.c") == first

    unsafe = tmp_path / "unsafe"
    unsafe.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(unsafe))
    (unsafe / f"_jinja2-cache-{os.getuid()}").write_text("not a directory")
    assert cgen._template_cache() is None
    assert fresh_run(tmp_path / "no_cache.c") == first


def test_a_run_collects_young_objects_rarely_and_restores_the_collector():
    """adgen keeps most of what it allocates: a run collects the youngest generation at
    most every YOUNG_COLLECTION allocations (room.py), and the caller's setting is back
    after it, also when the run fails."""
    import gc

    from adgen.room import YOUNG_COLLECTION
    before = gc.get_threshold()
    seen = []

    def threshold():
        seen.append(gc.get_threshold()[0])
        return 7

    assert with_room(threshold) == 7
    assert seen == [max(before[0], YOUNG_COLLECTION)] and seen[0] > 700
    assert gc.get_threshold() == before

    def failing():
        raise ValueError("stop")

    with pytest.raises(ValueError):
        with_room(failing)
    assert gc.get_threshold() == before
    gc.set_threshold(0)         # a caller that turned collection off keeps it off
    try:
        seen.clear()
        with_room(threshold)
        assert seen == [0]
    finally:
        gc.set_threshold(*before)
