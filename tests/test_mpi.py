"""MPI programs (docs/mpi.md): the programs of testsuite/mpi differentiated, linked with
the driver there and run under Open MPI's mpirun on 1, 2 and 4 ranks: the adjoint against
central differences of the distributed primal and against the tangent (the dot-product
test over the ranks) and the vector tangent, the gradient the same on every rank count; and the calls adgen
refuses. Skipped where mpicc or mpirun is missing (`make test` installs Open MPI where it
can: tests/tools.py)."""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import harness

MPI_DIR = Path(__file__).resolve().parent.parent / "testsuite" / "mpi"
# (test name, program, its -D flags); the single-precision heat stepper with the
# driver's central differences and comparisons loosened to float's precision
SINGLE = ["-DSINGLE", "-DFD_STEP=1e-3", "-DFD_TOL=1e-3", "-DEXACT_TOL=1e-5"]
PROGRAMS = [("heat_sendrecv", "heat", []), ("heat_parity", "heat", ["-DPARITY"]),
            ("heat_single", "heat", SINGLE),
            ("advection2d", "advection2d", []), ("dot_norm", "dot_norm", []),
            ("bcast_reduce", "bcast_reduce", []), ("extremes", "extremes", []),
            ("ring_status", "ring_status", []), ("reduce_in_place", "reduce_in_place", []),
            ("gather_scatter", "gather_scatter", []),
            ("gather_scatter_v", "gather_scatter_v", []),
            ("gather_scatter_in_place", "gather_scatter", ["-DIN_PLACE"]),
            ("heat_mirror_sendrecv", "heat", ["-DMIRROR"]),
            ("heat_mirror_parity", "heat", ["-DMIRROR", "-DPARITY"]),
            ("heat_nonblocking", "heat", ["-DNONBLOCKING"]),
            ("heat_nonblocking_mirror", "heat", ["-DNONBLOCKING", "-DMIRROR"]),
            ("heat_nonblocking_single", "heat", ["-DNONBLOCKING"] + SINGLE),
            ("advection2d_nonblocking", "advection2d", ["-DNONBLOCKING"]),
            ("ring_nonblocking", "ring_nonblocking", ["-DNONBLOCKING"])]
NONBLOCKING = next(p for p in PROGRAMS if p[0] == "heat_nonblocking")
# programs whose cost depends on the number of ranks
RANK_DEPENDENT = ("ring_status", "gather_scatter", "gather_scatter_v", "gather_scatter_in_place", "heat_mirror_sendrecv",
                  "heat_mirror_parity", "heat_nonblocking_mirror", "ring_nonblocking")
RANKS = (1, 2, 4)
needs_mpi = pytest.mark.skipif(harness.mpi_missing() is not None,
                               reason=f"{harness.mpi_missing()}: the MPI programs are not "
                                      "built or run")


def adgen(*args):
    return subprocess.run([sys.executable, "-m", "adgen", *map(str, args)],
                          capture_output=True, text=True, timeout=harness.ADGEN_TIMEOUT)


def gradient(output):
    return [float(v) for v in re.findall(r"^gradient \d+ (\S+)$", output, re.M)]


@needs_mpi
@pytest.mark.parametrize("name,program,defines,stack",
                         [(*p, "heap") for p in PROGRAMS] + [(*PROGRAMS[1], "static")] +
                         [(*NONBLOCKING, "static")],
                         ids=[p[0] for p in PROGRAMS] + ["heat_parity_static",
                                                         "heat_nonblocking_static"])
def test_program_on_1_2_4_ranks(tmp_path, name, program, defines, stack):
    source = MPI_DIR / f"{program}.c"
    parts = [source, MPI_DIR / "driver.c"]
    stack_args = ["--stack", stack] + (["--stack-size", "65536"] if stack == "static" else [])
    for mode, suffix, extra in (("--reverse", "b", stack_args), ("--forward", "d", []),
                                ("--forward", "dv", ["--vector"])):
        out = tmp_path / f"{name}_{suffix}.c"
        r = adgen(source, mode, *defines, "--head", "cost(cost)/(x)", *extra, "-o", out)
        assert r.returncode == 0, r.stderr
        text = out.read_text()
        # the user's MPI, its names as the program writes them
        assert "#include <mpi.h>" in text and "MPI_COMM_WORLD" in text
        # the forward sweep calls the routines themselves, not adgen's typed variants
        assert not re.search(r"\badgen_mpi_[A-Z]\w*_(double|float)\s*\(", text)
        parts.append(out)
    exe = tmp_path / name
    build = subprocess.run(["mpicc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O1",
                            *defines, "-o", str(exe), *map(str, parts), "-lm"], capture_output=True,
                           text=True, timeout=120)
    assert build.returncode == 0, build.stderr
    gradients = {}
    for ranks in RANKS:
        run = harness.mpirun(ranks, [str(exe)], timeout=60)
        assert run.returncode == 0 and "\nOK\n" in run.stdout, \
            f"{ranks} ranks:\n{run.stdout}\n{run.stderr[-2000:]}"
        gradients[ranks] = gradient(run.stdout)
        assert len(gradients[ranks]) == 12
    tolerance = 1e-5 if "-DSINGLE" in defines else 1e-12
    for ranks in RANKS[1:] if name not in RANK_DEPENDENT else ():
        for a, b in zip(gradients[1], gradients[ranks]):
            assert abs(a - b) <= tolerance * max(1.0, abs(a)), (ranks, a, b)


DECLS = "#include <mpi.h>\n"


def refused(tmp_path, body, head="f(y)/(x)"):
    src = tmp_path / "m.c"
    src.write_text(DECLS + textwrap.dedent(body))
    r = adgen(src, "--head", head, "-o", tmp_path / "out.c")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def test_mpi_calls_were_unknown_externals_and_are_now_read(tmp_path):
    src = tmp_path / "m.c"
    src.write_text(DECLS + textwrap.dedent("""
        void f(double *x, double *y)
        {
            int rank, size;
            double t = MPI_Wtime();
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Bcast(&rank, 1, MPI_INT, 0, MPI_COMM_WORLD);
            *y = *x * (rank + size) + 0.0 * t;
            MPI_Allreduce(MPI_IN_PLACE, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    """))
    r = adgen(src, "--head", "f(y)/(x)", "-o", tmp_path / "out.c")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "out.c").read_text()
    # the inactive calls and the integer broadcast kept as written
    for call in ("MPI_Comm_rank(MPI_COMM_WORLD, &rank);", "MPI_Barrier(MPI_COMM_WORLD);",
                 "MPI_Bcast(&rank, 1, MPI_INT, 0, MPI_COMM_WORLD);",
                 "MPI_Allreduce(MPI_IN_PLACE, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);",
                 "adgen_mpi_Allreduce_in_place_double_b(MPI_IN_PLACE, y, yb, 1, MPI_DOUBLE"):
        assert call in text
    assert "int MPI_" not in text       # declared by the user's <mpi.h>, not the output


@pytest.mark.parametrize("call,message", [
    ("MPI_Request q; MPI_Request *r = &q;\n"
     "MPI_Isend(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, r); MPI_Wait(r, MPI_STATUS_IGNORE);",
     "MPI_Isend: its request must be a local variable (or array) of 'f'"),
    ("MPI_Request q; MPI_Isend(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &q); finish(&q);",
     "MPI_Isend: its request 'q' is passed to 'finish'"),
    ("MPI_Request q, all[1]; MPI_Isend(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &q);\n"
     "all[0] = q; MPI_Waitall(1, all, MPI_STATUSES_IGNORE);",
     "MPI_Isend: its request 'q' is copied"),
    ("MPI_Request q; double *p = x;\n"
     "MPI_Irecv(p, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE);",
     "MPI_Irecv: its buffer must be an array, a pointer parameter 'f' never changes, or a "
     "variable's address"),
    ("MPI_Request q; MPI_Irecv(x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &q);\n"
     "MPI_Wait(&q, MPI_STATUS_IGNORE);",
     "MPI_Irecv: a receive of floating-point data from MPI_ANY_SOURCE"),
    ("MPI_Request q; MPI_Irecv(x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q);\n"
     "if (MPI_Wait(&q, MPI_STATUS_IGNORE)) *y = 0.0;",
     "MPI_Wait inside an expression, in a function that posts non-blocking requests"),
    ("MPI_Request q[2]; float z[1];\n"
     "MPI_Irecv(x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q[0]);\n"
     "MPI_Irecv(z, 1, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, &q[1]);\n"
     "MPI_Waitall(2, q, MPI_STATUSES_IGNORE); *y = *y + z[0];",
     "MPI_Irecv: non-blocking requests on double and on float data in one function"),
    ("MPI_Request q; MPI_Send_init(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &q);",
     "MPI routine 'MPI_Send_init' is not supported by adgen yet"),
    ("MPI_Request q; int i; MPI_Irecv(x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &q);\n"
     "MPI_Waitany(1, &q, &i, MPI_STATUS_IGNORE);",
     "MPI routine 'MPI_Waitany' is not supported by adgen yet"),
    ("MPI_Comm c; MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c);",
     "MPI routine 'MPI_Comm_split' is not supported by adgen yet"),
    ("MPI_Datatype t; MPI_Type_contiguous(2, MPI_DOUBLE, &t);",
     "MPI routine 'MPI_Type_contiguous' is not supported by adgen yet"),
    ("MPI_Recv(x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
     "MPI_Recv: a receive of floating-point data from MPI_ANY_SOURCE"),
    ("MPI_Recv(x, 1, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
     "MPI_Recv: a receive of floating-point data with MPI_ANY_TAG"),
    ("MPI_Send(x, 1, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);",
     "MPI_Send: 'buf' is double data, which adgen differentiates sent as MPI_DOUBLE only "
     "(not MPI_FLOAT)"),
    ("MPI_Datatype t = MPI_DOUBLE; MPI_Send(x, 1, t, 1, 0, MPI_COMM_WORLD);",
     "(not a datatype given by a variable)"),
    ("MPI_Op o = MPI_SUM; MPI_Allreduce(x, y, 1, MPI_DOUBLE, o, MPI_COMM_WORLD);",
     "only the reductions MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD of floating-point data are "
     "differentiated yet (not an operation given by a variable)"),
    ("int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);\n"
     "MPI_Reduce(r == 0 ? MPI_IN_PLACE : (void *)x, y, 1, MPI_DOUBLE, MPI_SUM, 0, "
     "MPI_COMM_WORLD);",
     "MPI_Reduce: MPI_IN_PLACE chosen at run time for 'sendbuf': write the call with "
     "MPI_IN_PLACE and the one without as two calls"),
    # (a null receive buffer is for Gather's off the root: Reduce's is in/out everywhere)
    ("MPI_Reduce(x, (void *)0, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);",
     "MPI_Reduce: adgen cannot tell the type of the data of 'recvbuf'"),
    ("void *p = x; MPI_Bcast(p, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);",
     "MPI_Bcast: adgen cannot tell the type of the data of 'buffer'"),
    ("struct { double v; int r; } p[1]; p[0].v = *x; p[0].r = 0;\n"
     "MPI_Allreduce(MPI_IN_PLACE, p, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);",
     "MPI_Allreduce: adgen cannot tell the type of the data of 'recvbuf'"),
    ("long double z[1]; MPI_Bcast(z, 1, MPI_LONG_DOUBLE, 0, MPI_COMM_WORLD);",
     "MPI_Bcast: 'buffer' is long double data: only double and float buffers"),
    ("int k = 0; MPI_Bcast(&k, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);",
     "MPI_Bcast: 'buffer' is not double data but its datatype is MPI_DOUBLE"),
    ("MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x, 1, MPI_DOUBLE, MPI_COMM_WORLD);",
     "MPI_Alltoall with MPI_IN_PLACE on floating-point data is not supported yet"),
    ("if (MPI_Send(x, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD)) *y = 0.0;",
     "MPI_Send on floating-point data inside an expression"),
])
def test_refused_calls(tmp_path, call, message):
    err = refused(tmp_path, f"""
        void finish(MPI_Request *request);
        void f(double *x, double *y)
        {{
            {call}
            *y = *y + *x * *x;
        }}
    """)
    assert message in err
    assert re.match(r"\S*m\.c:\d+:\d+: error: ", err), err


@pytest.mark.parametrize("directive", ["adgen binomial_ckp(4, 2, 0)", "adgen fp_loop",
                                       "adgen independent", "omp parallel for"])
def test_communication_in_a_replayed_loop_is_refused(tmp_path, directive):
    err = refused(tmp_path, f"""
        static void exchange(double *u)
        {{
            MPI_Sendrecv(&u[0], 1, MPI_DOUBLE, 1, 0, &u[1], 1, MPI_DOUBLE, 1, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }}
        void f(double *x, double *y)
        {{
            int t, rank;
            double u[2];
            u[0] = *x;
            u[1] = 0.0;
            #pragma {directive}
            for (t = 0; t < 4; t++) {{
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                exchange(u);
                u[0] = u[0] * u[1] + 1.0;
            }}
            *y = u[0];
        }}
    """)
    assert f"MPI_Sendrecv in a loop under '#pragma {directive}'" in err, err


@pytest.mark.parametrize("line,message", [
    ("use mpi", "MPI in Fortran ('use mpi') is not supported by adgen yet"),
    ("use mpi_f08", "MPI in Fortran ('use mpi_f08') is not supported by adgen yet"),
    ("include 'mpif.h'", "MPI in Fortran (INCLUDE 'mpif.h') is not supported by adgen yet"),
])
def test_fortran_mpi_is_refused(tmp_path, line, message):
    src = tmp_path / "m.f90"
    src.write_text(textwrap.dedent(f"""\
        subroutine f(x, y)
          {line}
          double precision :: x, y
          y = x * x
        end subroutine
    """))
    r = adgen(src, "--head", "f(y)/(x)", "-o", tmp_path / "out.c")
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert re.match(r"\S*m\.f90:2:\d+: error: " + re.escape(message), r.stderr), r.stderr


def test_a_communicating_call_is_never_run_again(tmp_path):
    """A function that communicates is called in split mode, whose backward sweep does
    not run it again (joint mode would send its messages twice): asking for joint mode
    is an error."""
    body = """
        static double summed(double v)
        {
            double total = 0.0;
            MPI_Allreduce(&v, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            return total;
        }
        void f(double *x, double *y)
        {
            %s
            *y = summed(*x * *x);
        }
    """
    err = refused(tmp_path, body % "#pragma adgen checkpoint")
    assert "#pragma adgen checkpoint: the callee communicates through MPI" in err, err
    src = tmp_path / "m.c"
    src.write_text(DECLS + textwrap.dedent(body % ""))
    r = adgen(src, "--head", "f(y)/(x)", "--explain", "-o", tmp_path / "out.c")
    assert r.returncode == 0, r.stderr
    assert "call of summed: split mode (the callee communicates through MPI" in r.stdout + \
        r.stderr
    assert (tmp_path / "out.c").read_text().count("MPI_Allreduce(&v, &total") == 1


@needs_mpi
def test_a_constant_table_sent_compiles(tmp_path):
    """A `static const` array sent as a message carries a derivative (every buffer of a
    message does): its tangent and adjoint are zeroed, so they are declared without the
    const (the tangent was `static const double tabled[2]`, and its memset failed -Werror)."""
    src = tmp_path / "m.c"
    src.write_text(DECLS + textwrap.dedent("""
        static const double table[2] = {1.5, 2.5};
        double f(double *x)
        {
            double b[2] = {0.0, 0.0};
            MPI_Sendrecv(table, 2, MPI_DOUBLE, 0, 1, b, 2, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            return b[0] * *x * b[1];
        }
    """))
    for mode in ("--forward", "--reverse"):
        out = tmp_path / f"out{mode[2:]}.c"
        r = adgen(src, mode, "--head", "f(f)/(x)", "-o", out)
        assert r.returncode == 0, r.stderr
        build = subprocess.run(["mpicc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-c",
                                str(out), "-o", str(tmp_path / "out.o")],
                               capture_output=True, text=True, timeout=120)
        assert build.returncode == 0, build.stderr


def test_calls_refused_only_where_a_head_reaches_them(tmp_path):
    """A main in the same file may call MPI as adgen could not differentiate: it is not
    differentiated."""
    src = tmp_path / "m.c"
    src.write_text(DECLS + textwrap.dedent("""
        void f(double *x, double *y)
        {
            MPI_Allreduce(x, y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
        int main(int argc, char **argv)
        {
            double x = 1.0, y;
            MPI_Status status;
            MPI_Request request;
            MPI_Init(&argc, &argv);
            MPI_Recv(&x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            MPI_Irecv(&x, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &request);
            f(&x, &y);
            MPI_Finalize();
            return 0;
        }
    """))
    r = adgen(src, "--head", "f(y)/(x)", "-o", tmp_path / "out.c")
    assert r.returncode == 0, r.stderr
