"""The library functions adgen knows, and the derivative rules of the differentiable ones.

One table: each math function maps to the partial derivative with respect to each of its
arguments, written as a C expression over the arguments `x` (first), `y` (second) and `z`
(third).
`None` marks an argument with no derivative (an integer exponent, say). The float variants
(`sinf`, ...) use the same rules in single precision. Partials are written so that their
intermediate values stay in range wherever the derivative does (`(y / h) / h`, not
`y / (x * x + y * y)`). Two more tables say how a rule is applied at points where a
function is not smooth (docs/rules.md, "Where a function is not smooth").
"""
import re
from dataclasses import dataclass, field
from typing import Optional

from adgen import ir

# name: partials with respect to (x, y)
MATH_RULES = {
    "sqrt": ["0.5 / sqrt(x)"],
    "exp": ["exp(x)"],
    "exp2": ["0.69314718055994530942 * exp2(x)"],
    "log": ["1.0 / x"],
    "log2": ["1.0 / (x * 0.69314718055994530942)"],
    "log10": ["1.0 / (x * 2.30258509299404568402)"],
    "sin": ["cos(x)"],
    "cos": ["-sin(x)"],
    "tan": ["1.0 + tan(x) * tan(x)"],
    "asin": ["1.0 / sqrt(1.0 - x * x)"],
    "acos": ["-1.0 / sqrt(1.0 - x * x)"],
    "atan": ["1.0 / (1.0 + x * x)"],
    "sinh": ["cosh(x)"],
    "cosh": ["sinh(x)"],
    "tanh": ["1.0 - tanh(x) * tanh(x)"],
    "asinh": ["1.0 / hypot(x, 1.0)"],
    "acosh": ["1.0 / (sqrt(x - 1.0) * sqrt(x + 1.0))"],
    "atanh": ["1.0 / (1.0 - x * x)"],
    "fabs": ["(signbit(x) ? -1.0 : 1.0)"],
    "pow": ["(y == 0.0 ? 0.0 : y * pow(x, y - 1.0))",
            "(x > 0.0 ? log(x) * pow(x, y) : 0.0)"],
    # at the origin, where neither has a derivative, 0 (the central difference's value,
    # and what sqrt(x * x + y * y) gets, its tangent there being 0)
    "atan2": ["(hypot(x, y) == 0.0 ? 0.0 : (y / hypot(x, y)) / hypot(x, y))",
              "(hypot(x, y) == 0.0 ? 0.0 : -((x / hypot(x, y)) / hypot(x, y)))"],
    "hypot": ["(hypot(x, y) == 0.0 ? 0.0 : x / hypot(x, y))",
              "(hypot(x, y) == 0.0 ? 0.0 : y / hypot(x, y))"],
    "fmin": ["(x <= y || isnan(y) ? 1.0 : 0.0)", "(x <= y || isnan(y) ? 0.0 : 1.0)"],
    "fmax": ["(x >= y || isnan(y) ? 1.0 : 0.0)", "(x >= y || isnan(y) ? 0.0 : 1.0)"],
    "fmod": ["1.0", "-trunc(x / y)"],
    "fdim": ["(x > y ? 1.0 : 0.0)", "(x > y ? -1.0 : 0.0)"],
    "copysign": ["(!signbit(x) == !signbit(y) ? 1.0 : -1.0)", "0.0"],
    "lgamma": ["adgen_digamma(x)"],
    "tgamma": ["tgamma(x) * adgen_digamma(x)"],
    "erf": ["1.12837916709551257390 * exp(-x * x)"],
    "erfc": ["-1.12837916709551257390 * exp(-x * x)"],
    "cbrt": ["1.0 / (3.0 * cbrt(x) * cbrt(x))"],
    "expm1": ["exp(x)"],
    "log1p": ["1.0 / (1.0 + x)"],
    "ldexp": ["ldexp(1.0, y)", None],
    "remainder": ["1.0", "-rint(x / y)"],
    "fma": ["y", "x", "1.0"],
    # one ulp toward y: x's derivative where it is not the step
    "nextafter": ["1.0", "0.0"],
    # POSIX's Bessel functions of the first and second kind: J0' = -J1, and
    # Jn' = (J(n-1) - J(n+1)) / 2, finite at 0 where J1' = J0 - J1 / x is not (jn and yn
    # take negative orders: J(-1) = -J1)
    "j0": ["-j1(x)"],
    "j1": ["0.5 * (j0(x) - jn(2, x))"],
    "jn": [None, "0.5 * (jn(x - 1, y) - jn(x + 1, y))"],
    "y0": ["-y1(x)"],
    "y1": ["0.5 * (y0(x) - yn(2, x))"],
    "yn": [None, "0.5 * (yn(x - 1, y) - yn(x + 1, y))"],
    # exp(x * x) * erfc(x), a helper (templates/runtime.c.j2)
    "adgen_erfc_scaled": ["adgen_erfc_scaled_slope(x)"],
}
# The functions of MATH_RULES that <math.h> declares only outside strict C99 (POSIX's): the
# back end declares those the generated code calls
POSIX_MATH = ("j0", "j1", "jn", "y0", "y1", "yn")
# Functions with a second output through a pointer y, differentiated as the statements
# they equal (the C front end writes them so): `*y = OUT;` then RESULT, which reads *y, x
# read once. frexp's exponent of 0 and inf is 0, as C's; modf keeps the sign of x in both
# parts, and of +-inf gives +-0.
THROUGH_POINTER = {
    "frexp": ("(x == 0.0 || !isfinite(x)) ? 0 : ilogb(x) + 1", "ldexp(x, -*y)"),
    "modf": ("trunc(x)", "(isinf(x) ? copysign(0.0, x) : copysign(x - *y, x))"),
}
# The intrinsics of f2c's runtime library (libf2c) that f2c-translated code calls, every
# argument by pointer (`pow_dd(&d__1, &c_b4)`): each is the expression over its pointers x
# and y that computes what libf2c's does, bit for bit, and is differentiated as such (the
# derivative code then needs no libf2c). Integer powers go through adgen_pow_di, libf2c's
# binary powering (templates/runtime.c.j2), which pow() does not round alike.
_F2C_ABS = "(*x >= 0 ? *x : -*x)"
F2C_CALLS = {
    "pow_dd": "pow(*x, *y)",
    "pow_di": "adgen_pow_di(*x, *y)",
    "pow_ri": "adgen_pow_di((double)*x, *y)",
    "d_sign": f"(*y >= 0 ? {_F2C_ABS} : -{_F2C_ABS})",
    "r_sign": f"(*y >= 0 ? (double){_F2C_ABS} : -(double){_F2C_ABS})",
    "d_abs": _F2C_ABS,
    "d_dim": "(*x > *y ? *x - *y : 0.0)",
    "d_int": "(*x > 0 ? floor(*x) : -floor(-*x))",
    "d_nint": "(*x >= 0 ? floor(*x + .5) : -floor(.5 - *x))",
    "i_dnnt": "(int)(*x >= 0 ? floor(*x + .5) : -floor(.5 - *x))",
    "d_mod": "(*x - *y * (*x / *y >= 0 ? floor(*x / *y) : -floor(-(*x / *y))))",
    "d_lg10": "0.43429448190325182765 * log(*x)",
    "d_prod": "(double)*x * *y",
    "d_atn2": "atan2(*x, *y)",
    **{f"d_{f}": f"{f}(*x)" for f in ("sqrt", "exp", "log", "sin", "cos", "tan", "asin",
                                      "acos", "atan", "sinh", "cosh", "tanh")},
    # REAL arguments, computed in double as libf2c's r_ routines do
    "r_abs": f"(double){_F2C_ABS}",
    "r_dim": "(*x > *y ? *x - *y : 0.0)",
    "r_int": "(*x > 0 ? floor(*x) : -floor(-*x))",
    "r_nint": "(*x >= 0 ? floor(*x + .5) : -floor(.5 - *x))",
    "r_mod": "((double)*x - (double)*y * ((double)*x / *y >= 0 ? floor((double)*x / *y) "
             ": -floor(-((double)*x / *y))))",
    "r_lg10": "0.43429448190325182765 * log(*x)",
    "r_atn2": "atan2(*x, *y)",
    **{f"r_{f}": f"{f}(*x)" for f in ("sqrt", "exp", "log", "sin", "cos", "tan", "asin",
                                      "acos", "atan", "sinh", "cosh", "tanh")},
    # integer results
    "i_nint": "(int)(*x >= 0 ? floor(*x + .5) : -floor(.5 - *x))",
    "i_sign": f"(*y >= 0 ? {_F2C_ABS} : -{_F2C_ABS})",
    "i_dim": "(*x > *y ? *x - *y : 0)",
}
# Piecewise functions: the derivative is that of the branch the function takes, as if it
# were this expression (the primal still calls the function). Multiplying by the 0 or 1 of
# a test instead would carry a NaN or inf of the branch not taken into the result. The
# sign bit decides at zero: fabs'(-0.0) = -1, as for copysign(1.0, x).
PIECEWISE = {
    "fabs": "(signbit(x) ? -x : x)",
    "fmax": "(x >= y || isnan(y) ? x : y)",
    "fmin": "(x <= y || isnan(y) ? x : y)",
    "fdim": "(x > y ? x - y : 0.0)",
    "copysign": "(!signbit(x) == !signbit(y) ? x : -x)",
}
# Functions with a partial that is infinite at points where the function itself is finite
# (sqrt and cbrt at 0, asin and acos at +-1, acosh at 1, pow(0, y) for y < 1): a
# contribution through such a partial is zero when what the chain rule multiplies it by
# is zero, never 0 * inf = NaN. pow's are finite for finite x when its exponent is a
# constant of 0 or at least 1.
SINGULAR = ("sqrt", "cbrt", "asin", "acos", "acosh", "pow")
# Functions whose derivative is zero wherever it exists.
STEP_FUNCTIONS = ("floor", "ceil", "round", "trunc", "rint", "nearbyint")
# Library calls with no effect on derivatives that the forward sweep keeps.
EFFECT_ONLY = ("printf", "fprintf", "puts", "putchar", "fputs", "fflush", "perror", "assert",
               "exit", "abort", "sprintf", "snprintf", "srand",
               # timing and the process (<sys/time.h>, <sys/resource.h>, <unistd.h>, ...)
               "gettimeofday", "getrusage", "clock_gettime", "sleep", "usleep",
               "sched_yield",
               # a stop with a message, Fortran's STOP (templates/runtime.c.j2)
               "adgen_shape_error", "adgen_stop")
# libf2c's routines that run the Fortran I/O statements and STOP of C that f2c
# translated: a WRITE (PRINT) is a start (s_wsle, list-directed; s_wsfe, formatted; ...),
# one call per item (do_lio, do_fio, do_uio: the item's address as char *, read for
# printing) and an end. Without a READ in the same function, each do_* call is an item of
# a WRITE: they read memory only, as printf does.
F2C_WRITES = ("s_wsle", "e_wsle", "s_wsfe", "e_wsfe", "s_wsfi", "e_wsfi", "s_wsue",
              "e_wsue", "s_wdue", "e_wdue", "s_wdfe", "e_wdfe", "s_wsne",
              "do_lio", "do_fio", "do_uio", "s_stop", "s_paus")
# The starts of READ statements: their do_* calls write the items, with values that carry
# no derivative; the front end refuses them in a differentiated function.
F2C_READS = ("s_rsle", "s_rsfe", "s_rsfi", "s_rsue", "s_rdue", "s_rdfe", "s_rsne")
# The position of the item among the arguments of each do_* call (its other arguments,
# the item's type code and count, are only read; the item is written by a READ).
F2C_ITEMS = {"do_lio": 2, "do_fio": 1, "do_uio": 1}
# libf2c's routines of integers alone that stay calls (pow_ii: binary powering in
# integers, which no expression computes): no derivative; the output declares them.
F2C_INTEGER = ("pow_ii",)
# Library calls returning integers or flags: never active.
INTEGER_RESULT = ("abs", "labs", "isnan", "isinf", "isfinite", "signbit", "lround", "lrint",
                  "ilogb", "ilogbf", "ilogbl", "lroundf", "lroundl", "lrintf", "lrintl",
                  "strlen", "strcmp", "strncmp", "rand", "atoi", "atol", "memcmp",
                  # Fortran's CHARACTER comparison, len_trim, leading blanks and index
                  # (templates/runtime.c.j2)
                  "adgen_str_cmp", "adgen_len_trim", "adgen_len_lead", "adgen_str_index",
                  # the lengths of buffers of every rank's block (templates/mpi_rules.c.j2)
                  "adgen_all_ranks_length", "adgen_root_ranks_length",
                  "adgen_displaced_length", "adgen_root_displaced_length")
ALLOCATION = ("malloc", "calloc", "free", "realloc")
MEMORY = ("memcpy", "memmove", "memset")

# MPI (docs/mpi.md). Routines with no effect on derivatives, kept in the forward sweep:
# their kind of LibFunc ('int': writes integers through its pointers; 'step': a number
# with no derivative).
MPI_INACTIVE = {"MPI_Init": "int", "MPI_Finalize": "effect", "MPI_Comm_rank": "int",
                "MPI_Comm_size": "int", "MPI_Barrier": "effect", "MPI_Abort": "effect",
                "MPI_Wtime": "step", "MPI_Wait": "int", "MPI_Waitall": "int"}
# The OpenMP runtime (adgen's <omp.h>): numbers of threads, times, locks; no derivatives.
# 'int': an integer result; 'step': a number with no derivative; 'effect': kept for its
# effect (a lock set or unset where the program does, in the tangent too).
OPENMP_RUNTIME = {name: "int" for name in (
    "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads", "omp_get_num_procs",
    "omp_get_thread_limit", "omp_in_parallel", "omp_get_level", "omp_get_active_level",
    "omp_get_team_size", "omp_get_ancestor_thread_num", "omp_get_dynamic", "omp_test_lock",
    "omp_test_nest_lock")}
OPENMP_RUNTIME.update({name: "step" for name in ("omp_get_wtime", "omp_get_wtick")})
OPENMP_RUNTIME.update({name: "effect" for name in (
    "omp_set_num_threads", "omp_set_dynamic", "omp_init_lock", "omp_destroy_lock",
    "omp_set_lock", "omp_unset_lock", "omp_init_nest_lock", "omp_destroy_nest_lock",
    "omp_set_nest_lock", "omp_unset_nest_lock")})
# The communication routines adgen differentiates on contiguous MPI_DOUBLE / MPI_FLOAT
# buffers (frontend/mpi_calls.py): their buffers, each with the parameter giving its
# datatype, and the rule of the call, by the names of adgen's <mpi.h>. A call on such
# buffers becomes a call of a typed variant of the routine (its buffers double * or
# float *) with this rule; its derivative routines are emitted in the output
# (templates/mpi_rules.c.j2). Integer buffers are kept as written, with no derivative.
_TWO_TYPES = {"sendbuf": "sendtype", "recvbuf": "recvtype"}     # (read only)
MPI_COMMUNICATION = {
    "MPI_Send": ({"buf": "datatype"}, "()/(buf)  buf=count"),
    # a receive buffer in/out: a receive from MPI_PROC_NULL leaves it as it is
    "MPI_Recv": ({"buf": "datatype"}, "(buf)/(buf)  buf=count"),
    "MPI_Sendrecv": (_TWO_TYPES,
                     "(recvbuf)/(sendbuf recvbuf)  sendbuf=sendcount recvbuf=recvcount"),
    # non-blocking: paired with their MPI_Wait / MPI_Waitall at run time (docs/mpi.md;
    # frontend/mpi_calls.py adds the site and offset that find the buffer's adjoint again)
    "MPI_Isend": ({"buf": "datatype"}, "()/(buf)  buf=count"),
    "MPI_Irecv": ({"buf": "datatype"}, "(buf)/(buf)  buf=count"),
    "MPI_Bcast": ({"buffer": "datatype"}, "(buffer)/(buffer)  buffer=count"),
    # the receive buffer in/out: other ranks than the root keep its values
    "MPI_Reduce": ({"sendbuf": "datatype", "recvbuf": "datatype"},
                   "(recvbuf)/(sendbuf recvbuf)  sendbuf=count recvbuf=count"),
    "MPI_Allreduce": ({"sendbuf": "datatype", "recvbuf": "datatype"},
                      "(recvbuf)/(sendbuf)  sendbuf=count recvbuf=count"),
    # a buffer of every rank's block: the number of ranks times a block, found by the
    # output at run time (on the root only, for the root's buffer of Gather and Scatter)
    "MPI_Allgather": (_TWO_TYPES,
                      "(recvbuf)/(sendbuf)  sendbuf=sendcount "
                      "recvbuf=adgen_all_ranks_length(recvcount,comm)"),
    "MPI_Gather": (_TWO_TYPES,
                   "(recvbuf)/(sendbuf)  sendbuf=sendcount "
                   "recvbuf=adgen_root_ranks_length(recvcount,root,comm)"),
    "MPI_Scatter": (_TWO_TYPES,
                    "(recvbuf)/(sendbuf)  sendbuf=adgen_root_ranks_length(sendcount,root,comm) "
                    "recvbuf=recvcount"),
    "MPI_Alltoall": (_TWO_TYPES,
                     "(recvbuf)/(sendbuf)  sendbuf=adgen_all_ranks_length(sendcount,comm) "
                     "recvbuf=adgen_all_ranks_length(recvcount,comm)"),
    # blocks of counts[r] elements at displs[r]: a buffer reaches the end of the last one,
    # and a receive buffer is in/out (the elements between the blocks keep their values)
    "MPI_Gatherv": (_TWO_TYPES,
                    "(recvbuf)/(sendbuf recvbuf)  sendbuf=sendcount "
                    "recvbuf=adgen_root_displaced_length(recvcounts,displs,root,comm)"),
    "MPI_Scatterv": (_TWO_TYPES,
                     "(recvbuf)/(sendbuf)  "
                     "sendbuf=adgen_root_displaced_length(sendcounts,displs,root,comm) "
                     "recvbuf=recvcount"),
    "MPI_Allgatherv": (_TWO_TYPES,
                       "(recvbuf)/(sendbuf recvbuf)  sendbuf=sendcount "
                       "recvbuf=adgen_displaced_length(recvcounts,displs,comm)"),
    "MPI_Alltoallv": (_TWO_TYPES,
                      "(recvbuf)/(sendbuf recvbuf)  "
                      "sendbuf=adgen_displaced_length(sendcounts,sdispls,comm) "
                      "recvbuf=adgen_displaced_length(recvcounts,rdispls,comm)"),
}
# In/out buffers whose values before the call the adjoint routine does not read (the
# receive buffers, in/out only for MPI_PROC_NULL): stored only where the backward sweep
# reads them, and restored after the adjoint routine, as a pure output's.
MPI_UNREAD_BY_ADJOINT = {"MPI_Recv": ("buf",), "MPI_Sendrecv": ("recvbuf",),
                         "MPI_Irecv": ("buf",), "MPI_Allgather": ("recvbuf",),
                         "MPI_Gather": ("recvbuf",)}
# The completions of non-blocking requests: kept as written where a function posts none on
# floating-point data, else typed variants whose derivatives complete the tangents' requests
# and, in the backward sweep, post the reversed transfers (frontend/mpi_calls.py).
MPI_COMPLETION = {"MPI_Wait": 1, "MPI_Waitall": 2}     # the position of the request(s)
# The routines of non-blocking communication.
MPI_NON_BLOCKING = ("MPI_Isend", "MPI_Irecv") + tuple(MPI_COMPLETION)
# The rules of calls given MPI_IN_PLACE for their send buffer: the receive buffer in/out.
MPI_IN_PLACE_RULES = {"MPI_Allreduce": "(recvbuf)/(recvbuf)  recvbuf=count",
                      # (the root's call: the other ranks call MPI_Reduce as usual)
                      "MPI_Reduce": "(recvbuf)/(recvbuf)  recvbuf=count",
                      # each rank's block in place in the buffer of every rank's
                      "MPI_Allgather": "(recvbuf)/(recvbuf)  "
                                       "recvbuf=adgen_all_ranks_length(recvcount,comm)",
                      # (the root's call, its block in place: the others call MPI_Gather)
                      "MPI_Gather": "(recvbuf)/(recvbuf)  "
                                    "recvbuf=adgen_root_ranks_length(recvcount,root,comm)",
                      # (the root's call, MPI_IN_PLACE its receive buffer: its own block
                      # stays in the send buffer; the others call MPI_Scatter)
                      "MPI_Scatter": "()/(sendbuf)  "
                                     "sendbuf=adgen_root_ranks_length(sendcount,root,comm)"}
# The reduction operations differentiated (MPI_MAX and MPI_MIN through the rank holding
# the extremum, MPI_PROD through the product of the other ranks' values).
MPI_OPS = ("MPI_SUM", "MPI_MAX", "MPI_MIN", "MPI_PROD")
# The datatype an MPI buffer of each floating type is sent as.
MPI_DATATYPES = {"double": "MPI_DOUBLE", "float": "MPI_FLOAT"}
# Every floating buffer of a differentiated MPI call carries a derivative when one does:
# a message leaves one call and arrives at another, maybe elsewhere in the program, and
# both ends must agree on whether a derivative travels with it. The activity analysis
# links them all through this one memory node.
MPI_NETWORK = "adgen_mpi_network"


# Helpers that some rules need; the back end emits those used (templates/helpers.c.j2).
RULE_HELPERS = ("adgen_digamma", "adgen_erfc_scaled_slope")


# ------------------------------------------------------------------ BLAS kernels

def _stored(rows, cols, trans):
    """The length of a matrix argument of gemm whose op() is rows x cols (the matrix is
    stored cols x rows when transposed): its last row (Order 101) or column starts ld
    elements after the one before."""
    r, c = f"({trans}==111?{rows}:{cols})", f"({trans}==111?{cols}:{rows})"
    ld = "lda" if trans == "TransA" else "ldb"
    return f"(Order==101?({r}-1)*{ld}+{c}:({c}-1)*{ld}+{r})"


# Rules adgen brings itself, with the derivative routines it defines in its output
# (templates/builtin_rules.c.j2): the CBLAS level-1 kernels in double (d) and single (s)
# precision, positive increments. A copy's Y is in/out: with incY > 1 the elements
# between those written keep their values.
BUILTIN_RULES = [rule for p in "ds" for rule in [
    f"cblas_{p}dot(cblas_{p}dot)/(X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    f"cblas_{p}nrm2(cblas_{p}nrm2)/(X)  X=1+(N-1)*incX",
    f"cblas_{p}axpy(Y)/(alpha X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    f"cblas_{p}scal(X)/(alpha X)  X=1+(N-1)*incX",
    f"cblas_{p}copy(Y)/(X Y)  X=1+(N-1)*incX Y=1+(N-1)*incY",
    # Y = alpha op(A) X + beta Y, A an M x N matrix stored by rows (Order 101) or columns
    f"cblas_{p}gemv(Y)/(alpha A X beta Y)  A=(Order==101?(M-1)*lda+N:(N-1)*lda+M) "
    f"X=1+((TransA==111?N:M)-1)*incX Y=1+((TransA==111?M:N)-1)*incY",
    # C = alpha op(A) op(B) + beta C: op(A) is M x K (A stored M x K, or K x M transposed),
    # op(B) K x N, C M x N
    f"cblas_{p}gemm(C)/(alpha A B beta C)  A={_stored('M', 'K', 'TransA')} "
    f"B={_stored('K', 'N', 'TransB')} C=(Order==101?(M-1)*ldc+N:(N-1)*ldc+M)",
]]


# The same kernels as Fortran input calls them (the reference BLAS's `ddot(n, dx, incx,
# dy, incy)`, `sdot(n, sx, incx, sy, incy)` and so on, every argument by reference): each
# one's dummies, then its rule. A program that calls one without defining it gets these
# dummies and the rule; the derivative routines (`ddot_b_`, ...) are in the same template.
FORTRAN_BLAS = {
    "ddot": ("n dx incx dy incy", "ddot(ddot)/(dx dy)  dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "dnrm2": ("n x incx", "dnrm2(dnrm2)/(x)  x=1+(n-1)*incx"),
    "daxpy": ("n da dx incx dy incy",
              "daxpy(dy)/(da dx dy)  da=1 dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "dscal": ("n da dx incx", "dscal(dx)/(da dx)  da=1 dx=1+(n-1)*incx"),
    "dcopy": ("n dx incx dy incy", "dcopy(dy)/(dx dy)  dx=1+(n-1)*incx dy=1+(n-1)*incy"),
    "sdot": ("n sx incx sy incy", "sdot(sdot)/(sx sy)  sx=1+(n-1)*incx sy=1+(n-1)*incy"),
    "snrm2": ("n x incx", "snrm2(snrm2)/(x)  x=1+(n-1)*incx"),
    "saxpy": ("n sa sx incx sy incy",
              "saxpy(sy)/(sa sx sy)  sa=1 sx=1+(n-1)*incx sy=1+(n-1)*incy"),
    "sscal": ("n sa sx incx", "sscal(sx)/(sa sx)  sa=1 sx=1+(n-1)*incx"),
    "scopy": ("n sx incx sy incy", "scopy(sy)/(sx sy)  sx=1+(n-1)*incx sy=1+(n-1)*incy"),
}

BUILTIN_NAMES = {text.split("(", 1)[0] for text in BUILTIN_RULES}


def integer_dummy(name):
    """True for the dummies of a FORTRAN_BLAS kernel that are integers: n and the
    increments."""
    return name == "n" or name.startswith("inc")


def fortran_blas_dummies(name, arg_types, ret):
    """The dummies of the Fortran BLAS kernel `name` (FORTRAN_BLAS) when a call gives it
    the arguments it takes: integers for n and the increments, reals of the kernel's
    precision (double for d..., single for s...) for the rest and for a function's result.
    None otherwise."""
    if name not in FORTRAN_BLAS:
        return None
    dummies = FORTRAN_BLAS[name][0].split()
    is_function = FORTRAN_BLAS[name][1].startswith(f"{name}({name})")
    real = ir.DOUBLE if name.startswith("d") else ir.FLOAT
    if len(arg_types) != len(dummies) or \
            ret.resolved() != (real if is_function else ir.VOID).resolved():
        return None
    for d, t in zip(dummies, arg_types):
        target = ir.pointee(t.resolved())
        if target is None:
            return None
        want = ir.INT if integer_dummy(d) else real
        if ir.with_const(target.resolved(), False) != want:
            return None
    return dummies


@dataclass
class LibFunc:
    name: str
    ret: ir.Type
    kind: str                  # 'math' | 'step' | 'effect' | 'int' | 'alloc' | 'memory'
    partials: list = field(default_factory=list)
    precision: Optional[str] = None
    piecewise: Optional[str] = None     # the expression it is differentiated as (PIECEWISE)
    singular: bool = False              # a partial may be infinite where it is finite
    # a header of adgen's that no standard header the output includes stands for (f2c.h):
    # the output declares the function itself
    header: Optional[str] = None


def _variants():
    table = {}
    for name, partials in MATH_RULES.items():
        for suffix, t in (("", ir.DOUBLE), ("f", ir.FLOAT), ("l", ir.Prim("long double"))):
            table[name + suffix] = LibFunc(name + suffix, t, "math",
                                           [_in_precision(p, suffix) for p in partials], t.name,
                                           _in_precision(PIECEWISE.get(name), suffix),
                                           name in SINGULAR)
    for name in STEP_FUNCTIONS:
        for suffix, t in (("", ir.DOUBLE), ("f", ir.FLOAT), ("l", ir.Prim("long double"))):
            table[name + suffix] = LibFunc(name + suffix, t, "step")
    # gcc's constants, as gcc compiles them: no derivative
    for name, t in (("__builtin_inf", ir.DOUBLE), ("__builtin_inff", ir.FLOAT),
                    ("__builtin_huge_val", ir.DOUBLE), ("__builtin_huge_valf", ir.FLOAT),
                    ("__builtin_nan", ir.DOUBLE), ("__builtin_nanf", ir.FLOAT)):
        table[name] = LibFunc(name, t, "step")
    for name in EFFECT_ONLY:
        table[name] = LibFunc(name, ir.INT if name not in ("exit", "abort", "assert", "perror",
                                                             "adgen_shape_error",
                                                             "adgen_stop")
                              else ir.VOID, "effect")
    for name in F2C_WRITES:
        table[name] = LibFunc(name, ir.INT, "effect", header="f2c.h")
    for name in F2C_INTEGER:
        table[name] = LibFunc(name, ir.INT, "int", header="f2c.h")
    for name in INTEGER_RESULT:
        table[name] = LibFunc(name, ir.INT, "int")
    for name, kind in list(MPI_INACTIVE.items()) + list(OPENMP_RUNTIME.items()):
        table[name] = LibFunc(name, ir.DOUBLE if kind == "step" else ir.INT, kind)
    for name in MPI_COMMUNICATION:
        # on integer buffers (frontend/mpi_calls.py makes the others typed variants)
        table[name] = LibFunc(name, ir.INT, "int")
    for name in ALLOCATION:
        table[name] = LibFunc(name, ir.VOID if name == "free" else ir.Ptr(ir.VOID), "alloc")
    for name in MEMORY:
        table[name] = LibFunc(name, ir.Ptr(ir.VOID), "memory")
    for suffix, t in (("", ir.DOUBLE), ("f", ir.FLOAT), ("l", ir.Prim("long double"))):
        for helper in RULE_HELPERS:
            table[helper + suffix] = LibFunc(helper + suffix, t, "helper")
    # helpers of adgen's own output, kept as they are when it is read again
    # (docs/second-order.md): lengths and marks, and the deferred frees and the log
    table["adgen_imax"] = LibFunc("adgen_imax", ir.LONG, "int")
    table["adgen_was_freed"] = LibFunc("adgen_was_freed", ir.INT, "int")
    table["adgen_log_mark"] = LibFunc("adgen_log_mark", ir.SIZE_T, "int")
    table["adgen_checkpoint_split"] = LibFunc("adgen_checkpoint_split", ir.INT, "int")
    table["adgen_threads"] = LibFunc("adgen_threads", ir.INT, "int")
    table["adgen_thread"] = LibFunc("adgen_thread", ir.INT, "int")
    for name in ("adgen_defer_free", "adgen_free_deferred", "adgen_log_replay",
                 "adgen_log_cut", "adgen_release"):
        table[name] = LibFunc(name, ir.VOID, "effect")
    # x to the integer power y as libf2c computes it (F2C_CALLS)
    table["adgen_pow_di"] = LibFunc("adgen_pow_di", ir.DOUBLE, "math",
                                    ["(y == 0 ? 0.0 : y * adgen_pow_di(x, y - 1))", None],
                                    "double")
    return table


_FUNC_NAME = re.compile(r"\b(" + "|".join(list(MATH_RULES) + ["trunc", "rint", "ilogb"]) +
                        r")\(")
_LITERAL = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?)")


def _in_precision(rule, suffix):
    """The rule text for the float ('f') or long double ('l') variant."""
    if rule is None or suffix == "":
        return rule
    text = _FUNC_NAME.sub(lambda m: m.group(1) + suffix + "(", rule)
    for helper in RULE_HELPERS:
        text = text.replace(helper + "(", helper + suffix + "(")
    return _LITERAL.sub(lambda m: m.group(1) + ("f" if suffix == "f" else "L"), text)


LIBRARY_FUNCTIONS = _variants()


def through_pointer(name):
    """(the type of x, OUT, RESULT) of a function of THROUGH_POINTER in the precision its
    name says (`modff`: float), or None for another function."""
    for suffix, t in (("", ir.DOUBLE), ("f", ir.FLOAT), ("l", ir.Prim("long double"))):
        base = name[:len(name) - len(suffix)] if suffix else name
        if name.endswith(suffix) and base in THROUGH_POINTER:
            out, result = THROUGH_POINTER[base]
            return t, _in_precision(out, suffix), _in_precision(result, suffix)
    return None


def rule_expr(func: LibFunc, k: int, args):
    """The partial derivative of func with respect to argument k, as an IR expression over
    the given argument expressions; None when that argument has no derivative."""
    text = func.partials[k] if k < len(func.partials) else None
    if text is None:
        return None
    from adgen.ir.reader import parse_rule      # read by the C front end
    return parse_rule(text, func.precision, args)


def piecewise_expr(func: LibFunc, args):
    """The expression a piecewise function is differentiated as (PIECEWISE), over the given
    argument expressions; None for a smooth function."""
    if func.piecewise is None:
        return None
    from adgen.ir.reader import parse_rule
    e = parse_rule(func.piecewise, func.precision, args)
    test = e.test
    if isinstance(test, ir.Binary) and test.op == "||" and isinstance(test.right, ir.Call) \
            and test.right.func == "isnan" and isinstance(test.right.args[0], ir.Const):
        e.test = test.left      # a constant is no NaN: fmax(len, 1e-12) tests len >= 1e-12
    return e


def zero_with(product, factor, call):
    """product, the chain rule's partial of the math call times factor; for a partial that
    may be infinite at a finite value (SINGULAR), zero where the factor is."""
    from adgen.ir import exprs as X
    func = LIBRARY_FUNCTIONS[call.func]
    if not func.singular or X.is_zero(product):
        return product
    if func.name.startswith("pow") and isinstance(call.args[1], ir.Const):
        try:
            exponent = float(call.args[1].text.rstrip("fFlL"))
        except ValueError:
            exponent = -1.0     # a hexadecimal constant, say: guarded all the same
        if exponent == 0 or exponent >= 1:
            return product
    t = product.type
    return ir.Cond(ir.Binary("==", X.clone(factor), X.zero(t), ir.INT), X.zero(t), product, t)
