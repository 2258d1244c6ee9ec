"""Binomial checkpointing (#pragma adgen binomial_ckp): 60,000 steps of a time stepper
adjointed with at most 50 kept states, in a static stack whose size does not depend on the
number of steps; the gradient equals the one of the adjoint that stores every step."""
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent.parent / "testsuite" / "c"

MODEL = """
    #include <math.h>
    /* a damped nonlinear oscillator chain, explicit steps */
    void orbit(int nsteps, const double *p, double *q, double *out)
    {
        double v[4] = {0.0, 0.0, 0.0, 0.0};
        int t, i;
    PRAGMA
        for (t = 0; t < nsteps; t++) {
            for (i = 0; i < 4; i++)
                v[i] = 0.999 * v[i] - 1e-3 * (sin(q[i]) + p[i] * q[(i + 1) % 4]);
            for (i = 0; i < 4; i++)
                q[i] = q[i] + 1e-3 * v[i];
        }
        out[0] = q[0] * q[1] + q[2] * q[3];
    }
"""

MAIN = """
    #include <stdio.h>
    #include <stdlib.h>
    void orbit_b(int nsteps, const double *p, double *pb, double *q, double *qb,
                 double *out, double *outb);
    #ifdef FLAG
    extern int FLAG;
    #endif
    int main(int argc, char **argv)
    {
        int nsteps = argc > 1 ? atoi(argv[1]) : 1, i;
        double p[4] = {0.3, 0.5, 0.7, 0.9}, pb[4], q[4] = {0.1, -0.2, 0.3, 0.4}, qb[4];
        double out, outb = 1.0;
        orbit_b(nsteps, p, pb, q, qb, &out, &outb);
    #ifdef FLAG
        printf("%d", FLAG);
    #else
        printf("0");
    #endif
        for (i = 0; i < 4; i++) printf(" %.17g %.17g", pb[i], qb[i]);
        printf("\\n");
        return 0;
    }
"""


def build(tmp_path, name, pragma, *adgen_args, flag=None):
    src = tmp_path / f"{name}.c"
    src.write_text(textwrap.dedent(MODEL).replace("PRAGMA", pragma))
    out = tmp_path / f"{name}_b.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(src), "--head",
                        "orbit(out)/(p q)", "-o", str(out)] + list(adgen_args),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (tmp_path / "main.c").write_text(textwrap.dedent(MAIN))
    exe = tmp_path / name
    subprocess.run(["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror",
                    "-Wno-unknown-pragmas"] + ([f"-DFLAG={flag}"] if flag else []) +
                   [str(src), str(out), str(tmp_path / "main.c"), "-lm", "-o", str(exe)],
                   check=True)
    return exe


def run(exe, nsteps):
    out = subprocess.run([str(exe), str(nsteps)], capture_output=True, text=True,
                         check=True, timeout=120).stdout.split()
    return int(out[0]), [float(v) for v in out[1:]]


def test_sixty_thousand_steps_in_fifty_states_and_a_fixed_stack(tmp_path):
    # 50 kept states of 4 + 4 doubles, one step's values: 8 KiB is plenty, whatever nsteps
    ckp = build(tmp_path, "ckp", "#pragma adgen binomial_ckp(nsteps, 50, 0)",
                "--stack=static", "--stack-size", "8192", flag="ckp_b_stack_overflow")
    full = build(tmp_path, "full", "")
    for nsteps in (600, 60000):
        overflow, grad = run(ckp, nsteps)
        assert overflow == 0
        _, want = run(full, nsteps)
        for g, w in zip(grad, want):
            assert abs(g - w) <= 1e-10 * max(1.0, abs(w)), (nsteps, grad, want)


@pytest.mark.parametrize("loop", [
    "while (t < n) { x[0] = x[0] * x[0]; t++; }",
    "for (t = 0; t < n; t++) { x[0] = x[0] * x[0]; if (x[0] > 2.0) break; }",
])
def test_the_directive_needs_a_counted_loop(tmp_path, loop):
    src = tmp_path / "m.c"
    src.write_text(textwrap.dedent("""
        void f(int n, double *x)
        {
            int t = 0;
        #pragma adgen binomial_ckp(n, 4, 0)
            LOOP
        }
    """).replace("LOOP", loop))
    r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(src), "--head", "f(x)/(x)",
                        "--size", "x=1", "-o", str(tmp_path / "o.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert f"{src}:5:9: error: binomial_ckp: the loop must be counted" in r.stderr


def test_an_input_zeroed_as_read_is_refused_in_a_checkpointed_loop(tmp_path):
    # the adjoint of k, whose length adgen cannot tell, would be zeroed element by
    # element as the forward sweep reads it; the steps' forward sweeps run again between
    # backward sweeps and would wipe what those accumulated
    src = tmp_path / "ckp.c"
    src.write_text(textwrap.dedent("""
        static void step(int n, double *u, const double *k)
        {
            for (int i = 0; i < n; i++)
                u[i] = u[i] * k[(i + 1) % n] + 0.1;
        }
        void f(int n, int nsteps, const double *x, const double *k, double *u, double *y)
        {
            for (int i = 0; i < n; i++)
                u[i] = x[i];
        #pragma adgen binomial_ckp(nsteps, 3, 0)
            for (int t = 0; t < nsteps; t++)
                step(n, u, k);
            *y = 0.0;
            for (int i = 0; i < n; i++)
                *y += u[i];
        }
    """))
    cmd = [sys.executable, "-m", "adgen", "--reverse", str(src), "--head", "f(y)/(x k)",
           "--size", "u=n", "-o", str(tmp_path / "ckp_b.c")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{src}:11:9: error: binomial_ckp: cannot tell how many elements 'k' has" in \
        r.stderr, r.stderr
    assert "--size k=EXPR" in r.stderr
    assert not (tmp_path / "ckp_b.c").exists()
    r = subprocess.run(cmd + ["--size", "k=n"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_steps_moving_a_global_pointer_to_active_data_are_refused(tmp_path):
    # the primal steps run between kept states move the pointers, not their shadows: a
    # kept state would not tell where the derivatives are
    program = (SUITE / "global_pointers.c").read_text().replace(
        "    for (k = 0; k < nsteps; k++)",
        "#pragma adgen binomial_ckp(nsteps, 2, 0)\n    for (k = 0; k < nsteps; k++)")
    src = tmp_path / "gp.c"
    src.write_text(program)
    line = program.split("\n").index("#pragma adgen binomial_ckp(nsteps, 2, 0)") + 1
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "heat_run(energy)/(u0 kappa)", "--size", "work=2*n", "--size",
                        "kappa=n", "--size", "u0=n", "-o", str(tmp_path / "gp_b.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{src}:{line}:9: error: binomial_ckp: the code sets the global pointer 'cur' " \
        "to active data, which adgen cannot keep" in r.stderr, r.stderr


def revolve_runs(steps, snaps):
    """The fewest runs of the steps that reverse `steps` steps with `snaps` kept states
    (the first included) make beyond the recording runs: t * steps - C(snaps + t, t - 1),
    t the least with C(snaps + t, t) >= steps (Griewank and Walther's binomial bound)."""
    t = 0
    while math.comb(snaps + t, t) < steps:
        t += 1
    return t * steps - math.comb(snaps + t, t - 1) if t else 0


def test_the_binomial_schedule_runs_the_steps_the_fewest_times(tmp_path):
    # each step runs in the forward sweep and once recording; the schedule's other runs
    # are exactly the binomial bound: with 50 states and 60,000 steps, each step runs
    # again at most 4 times (C(54, 4) >= 60,000 > C(53, 3))
    src = tmp_path / "count.c"
    src.write_text(textwrap.dedent("""
        #include <math.h>
        void tick(void);        /* counts the runs of a step, outside the kept state */
        void march(int nsteps, int nsnaps, double *u)
        {
            int t;
            (void)nsnaps;       /* read by the directive only */
        #pragma adgen binomial_ckp(nsteps, nsnaps, 0)
            for (t = 0; t < nsteps; t++) {
                tick();
                u[0] = u[0] + 1e-4 * sin(u[1]);
                u[1] = u[1] - 1e-4 * sin(u[0]);
            }
        }
    """))
    out = tmp_path / "count_b.c"
    r = subprocess.run([sys.executable, "-m", "adgen", "-b", str(src), "--head",
                        "march(u)/(u)", "--size", "u=2", "--inactive", "tick", "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    (tmp_path / "main.c").write_text(textwrap.dedent("""
        #include <stdio.h>
        #include <stdlib.h>
        static long steps_run = 0;
        void tick(void) { steps_run++; }
        void march_b(int nsteps, int nsnaps, double *u, double *ub);
        int main(int argc, char **argv)
        {
            double u[2] = {0.3, 0.2}, ub[2] = {1.0, 0.5};
            if (argc != 3)
                return 2;
            march_b(atoi(argv[1]), atoi(argv[2]), u, ub);
            printf("%ld\\n", steps_run);
            return 0;
        }
    """))
    exe = tmp_path / "count"
    subprocess.run(["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror",
                    "-Wno-unknown-pragmas", str(src), str(out), str(tmp_path / "main.c"),
                    "-lm", "-o", str(exe)], check=True)
    for steps, snaps in ((60000, 50), (4, 2), (7, 2), (25, 3), (1000, 10), (5000, 4),
                         (37, 37), (38, 37), (1, 5), (2, 2)):
        runs = int(subprocess.run([str(exe), str(steps), str(snaps)], capture_output=True,
                                  text=True, check=True, timeout=120).stdout)
        assert runs == 2 * steps + revolve_runs(steps, snaps), (steps, snaps, runs)
    # --explain gives the schedule's count when the directive's numbers are constants
    fixed = tmp_path / "fixed.c"
    fixed.write_text(src.read_text().replace("binomial_ckp(nsteps, nsnaps, 0)",
                                             "binomial_ckp(600, 5, 0)")
                     .replace("t < nsteps", "t < 600"))
    text = explain(fixed, "march(u)/(u)", "--size", "u=2", "--inactive", "tick")
    assert f"{fixed}:9: march: steps: reversed from at most 5 kept states (Griewank's " \
        f"binomial schedule: 600 steps with 5 states run again {revolve_runs(600, 5)} " \
        "times in all, each at most 7 times)" in text, text


@pytest.mark.parametrize("old, new", [
    # a step that leaves both pointers on one block: the other block is not kept
    ("        v = t;\n", ""),
    # the swap under a condition: which pointer holds which block is not known
    ("        t = u;\n        u = v;\n        v = t;\n",
     "        if (s % 2) {\n            t = u;\n            u = v;\n            v = t;\n"
     "        }\n"),
    # blocks of different sizes
    ("    double *v = malloc(bytes);", "    double *v = malloc(bytes + 8);"),
    # a pointer moved outside the loop (a loop around it would run it again so)
    ("    energy[0] = 0.0;\n", "    u = v;\n    energy[0] = 0.0;\n"),
])
def test_swapped_heap_blocks_kept_only_when_each_step_permutes_them(old, new, tmp_path):
    """Blocks a checkpointed loop swaps are kept through the allocated pointers only when
    every step permutes those pointers (checkpoint_swapped_heap.c); else refused."""
    program = (SUITE / "checkpoint_swapped_heap.c").read_text()
    assert old in program
    src = tmp_path / "swap.c"
    src.write_text(program.replace(old, new))
    line = program.split("\n").index("#pragma adgen binomial_ckp(nsteps, 4, 0)") + 1
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "heat(energy)/(u0 k)", "-o", str(tmp_path / "swap_b.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{src}:{line}:9: error: binomial_ckp: the code writes memory allocated with " \
        "malloc" in r.stderr, r.stderr


def explain(source, head, *args):
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", "--explain", str(source),
                        "--head", head, "-o", os.devnull] + list(args),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout + r.stderr


def test_a_step_stores_nothing_the_next_kept_state_brings_back(tmp_path):
    """A checkpointed step's backward sweep is followed by a kept state brought back, or by
    steps run again from one: values the step overwrote are read again only from there, so
    the step stores them only for its own backward sweep (the output buffer it fills: not
    at all), and its copy back is stored as one block, as outside a checkpointed loop."""
    src = SUITE / "checkpoint_step_into_buffer.c"
    text = explain(src, "march(cost)/(u c)", "--size", "u=n", "--size", "next=n",
                   "--size", "c=n", "--size", "cost=1")
    for line, elem in ((25, "next[0]"), (27, "next[i]"), (28, "next[n - 1]")):
        assert f"{src}:{line}: step: {elem}: not stored" in text, text
    assert f"{src}:38: march: u[k]: stored as one block" in text, text
    # the heat stepper's scratch array: not stored, and the call in split mode, since
    # running it again (joint mode) would store its whole state for nothing
    src = SUITE / "checkpoint_heat.c"
    text = explain(src, "heat(energy)/(k u)", "--size", "k=n", "--size", "u=n",
                   "--size", "energy=1")
    assert f"{src}:21: step: tmp[i]: not stored" in text, text
    assert f"{src}:33: heat: call of step: split mode" in text, text


@pytest.mark.parametrize("copy", ["blk + 1", "&blk[1]"])
def test_steps_writing_a_block_through_a_pointer_into_it_not_at_its_start_are_refused(
        tmp_path, copy):
    # a copy of the allocated pointer at its start is kept with the block
    # (checkpoint_own_heap_alias.c); one pointing further in is refused, not guessed at
    program = (SUITE / "checkpoint_own_heap_alias.c").read_text().replace(
        "double *q = &blk[0];", f"double *q = {copy};")
    src = tmp_path / "alias.c"
    src.write_text(program)
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), "--head",
                        "chain_energy(energy)/(q0 k)", "-o", str(tmp_path / "alias_b.c")],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "error: binomial_ckp: the code writes memory allocated with malloc or reached " \
        "through pointers held in memory, which adgen cannot keep" in r.stderr, r.stderr
