"""Calls in joint and split mode (docs/directives.md): which mode adgen takes, what the
directives force, and that joint mode stores less. The derivatives themselves are checked
by testsuite/c/joint_calls.c."""
import re
import subprocess
import sys
import textwrap

import pytest

SMOOTH = """
    #include <math.h>
    static void smooth(int n, double *u, const double *w)
    {
        for (int k = 0; k < 5; k++)
            for (int i = 1; i < n - 1; i++)
                u[i] = u[i] + 0.1 * sin(u[i - 1] * w[i]) * u[i + 1];
    }
    void model(int n, int steps, double *u, const double *w, double *out)
    {
        for (int t = 0; t < steps; t++) {
    %s
            smooth(n, u, w);
        }
        *out = 0;
        for (int i = 0; i < n; i++)
            *out += u[i] * u[i];
    }
"""


def run_adgen(tmp_path, text, *flags, name="model.c"):
    src = tmp_path / name
    src.write_text(textwrap.dedent(text))
    r = subprocess.run([sys.executable, "-m", "adgen", "--reverse", str(src), *flags,
                        "-o", str(tmp_path / "out_b.c")], capture_output=True, text=True)
    r.report = r.stdout + r.stderr      # --explain and --stack-report print to stdout
    return r


def stack_bytes(report, **sizes):
    """The bytes of a --stack-report line, for the given sizes."""
    formula = re.search(r"stack: (?:at most )?(.*?) bytes pushed", report).group(1)
    return eval(formula, {}, sizes)


FLAGS = ("--head", "model(out)/(u,w)", "--size", "u=n", "--size", "w=n")


def test_a_callee_recording_more_than_its_state_runs_in_joint_mode(tmp_path):
    r = run_adgen(tmp_path, SMOOTH % "", *FLAGS, "--explain", "--stack-report")
    assert r.returncode == 0, r.stderr
    assert re.search(r"model\.c:\d+: model: call of smooth: joint mode \(the callee records "
                     r"40 \* n( \+ \d+)? bytes, the state kept is 8 \* n bytes\)", r.report)
    out = (tmp_path / "out_b.c").read_text()
    body = out[out.index("void model_b"):]
    assert "smooth(n, u, w);" in body          # the plain primal, forward
    assert body.index("adgen_push(u, n * sizeof(double));") < body.index("smooth(n, u, w);")
    assert body.index("adgen_pop(u, n * sizeof(double));") < body.index("smooth_fwd(") < \
        body.index("smooth_bwd(")


def test_joint_mode_stores_less_than_split_mode(tmp_path):
    joint = run_adgen(tmp_path, SMOOTH % "", *FLAGS, "--stack-report")
    split = run_adgen(tmp_path, SMOOTH % "#pragma adgen nocheckpoint", *FLAGS, "--explain",
                      "--stack-report")
    assert joint.returncode == 0 and split.returncode == 0, joint.stderr + split.stderr
    assert "call of smooth: split mode (#pragma adgen nocheckpoint)" in split.report
    for n, steps in ((100, 10), (1000, 500)):
        j = stack_bytes(joint.report, n=n, steps=steps)
        s = stack_bytes(split.report, n=n, steps=steps)
        assert j < s / 3, (j, s)


def test_store_all_keeps_split_mode(tmp_path):
    r = run_adgen(tmp_path, SMOOTH % "", *FLAGS, "--explain", "--store-all")
    assert r.returncode == 0, r.stderr
    assert "call of smooth: split mode (--store-all)" in r.report


def test_checkpoint_directive_where_the_state_cannot_be_kept_is_an_error(tmp_path):
    text = """
        #include <stdlib.h>
        static void grow(int n, double *u)
        {
            double *t = malloc(n * sizeof(double));
            for (int i = 0; i < n; i++) t[i] = u[i] * u[i];
            for (int i = 0; i < n; i++) u[i] = t[i] + u[i];
            free(t);
        }
        void model(int n, double *u)
        {
        #pragma adgen checkpoint
            grow(n, u);
        }
    """
    r = run_adgen(tmp_path, text, "--head", "model(u)/(u)", "--size", "u=n")
    assert r.returncode == 1
    assert re.search(r"model\.c:13:\d+: error: #pragma adgen checkpoint: the callee "
                     r"allocates or frees memory", r.report), r.stderr
    assert "Traceback" not in r.report


def test_fortran_nocheckpoint_puts_the_call_in_split_mode(tmp_path):
    pytest.importorskip("fparser")
    text = """
        subroutine smooth(n, u)
          integer n, i, k
          real(8) u(n)
          do k = 1, 4
            do i = 2, n - 1
              u(i) = u(i) + 0.1d0 * sin(u(i - 1)) * u(i + 1)
            end do
          end do
        end subroutine
        subroutine model(n, steps, u, out)
          integer n, steps, t
          real(8) u(n), out
          do t = 1, steps
            call smooth(n, u)
            !$AD NOCHECKPOINT
            call smooth(n, u)
          end do
          out = sum(u * u)
        end subroutine
    """
    r = run_adgen(tmp_path, text, "--head", "model(out)/(u)", "--explain", name="model.f90")
    assert r.returncode == 0, r.stderr
    assert re.search(r"model\.f90:15: model: call of smooth: joint mode", r.report), r.stderr
    assert re.search(r"model\.f90:17: model: call of smooth: split mode "
                     r"\(#pragma adgen nocheckpoint\)", r.report), r.stderr


def test_the_command_line_chooses_a_functions_call_mode(tmp_path):
    split = run_adgen(tmp_path, SMOOTH % "", *FLAGS, "--explain", "--split", "smooth")
    assert split.returncode == 0, split.stderr
    assert "call of smooth: split mode (--split smooth)" in split.report
    joint = run_adgen(tmp_path, SMOOTH % "", *FLAGS, "--explain", "--joint", "smooth",
                      "--stack-report")
    assert joint.returncode == 0, joint.stderr
    assert "call of smooth: joint mode (--joint smooth)" in joint.report


def test_a_callee_recording_its_state_and_a_scalar_runs_in_split_mode(tmp_path):
    """A triangular product: its record is the output block (the state joint mode would
    keep) and the final value of an index. Joint mode would save those few bytes per call
    and run the whole product twice."""
    r = run_adgen(tmp_path, """
        static void tri(int n, const double *l, const double *x, double *out)
        {
            int i, j, k = 0;
            for (i = 0; i < n; i++)
                out[i] = x[i];
            for (i = 0; i < n; i++)
                for (j = i + 1; j < n; j++) {
                    out[j] = out[j] + l[k] * x[i];
                    k++;
                }
        }
        void model(int n, int m, const double *l, const double *x, double *tmp, double *e)
        {
            int t, i;
            *e = 0.0;
            for (t = 0; t < m; t++) {
                tri(n, l, &x[t * n], tmp);
                for (i = 0; i < n; i++)
                    *e = *e + tmp[i] * tmp[i];
            }
        }
    """, "--head", "model(e)/(l x)", "--size", "l=n*n", "--size", "x=m*n",
        "--size", "tmp=n", "--explain")
    assert r.returncode == 0, r.stderr
    assert re.search(r"call of tri: split mode \(the callee records 8 \* n \+ 4 bytes, the "
                     r"state kept is 8 \* n bytes: too few more to run it twice\)", r.report), \
        r.report
