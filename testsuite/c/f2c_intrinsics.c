/* adgen-test
head: resid_(fvec)/(x)
arg n: int[1] = {5}
arg x: double[5] = uniform(0.6, 1.7)
arg fvec: double[5]
sizes: give
link: include/f2c_runtime.c
*/
/* Code as f2c translates Fortran: every argument by pointer, the arrays decremented for
 * one-based loops, the intrinsics of f2c's runtime library (libf2c) called with pointers
 * and declared inside the function, constants as static variables passed by address.
 * Its locals are static, as f2c declares them (vector mode keeps the tangents of
 * statics set before they are read in locals of the derivative). Each intrinsic is the
 * expression that computes what libf2c's does (pow_di by binary powering, rounded
 * alike), so the derivative code needs no libf2c; the primal gets them from
 * include/f2c_runtime.c (`link:`), which adgen does not see. */
typedef int integer;
typedef double doublereal;
typedef float real;

#define max(a,b) ((a) >= (b) ? (a) : (b))
#define min(a,b) ((a) <= (b) ? (a) : (b))

static doublereal c_b4 = 1.5;
static integer c__3 = 3;
static integer c_n2 = -2;

/* Subroutine */ int resid_(integer *n, doublereal *x, doublereal *fvec)
{
    /* System generated locals */
    integer i__1;
    doublereal d__1, d__2, d__3;

    /* Builtin functions */
    double pow_dd(doublereal *, doublereal *), d_sign(doublereal *, doublereal *),
        pow_di(doublereal *, integer *), sqrt(doublereal), d_mod(doublereal *,
        doublereal *), d_int(doublereal *), d_nint(doublereal *), d_lg10(doublereal *),
        d_atn2(doublereal *, doublereal *), d_dim(doublereal *, doublereal *), d_exp(
        doublereal *);

    /* Local variables */
    static integer i__;
    static doublereal t, u, w[2];

    /* Parameter adjustments */
    --fvec;
    --x;

    /* Function Body */
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        d__1 = x[i__];
        d__2 = d__1 - 1.2;
        t = pow_dd(&d__1, &c_b4) + d_sign(&x[i__], &d__2) + pow_di(&x[i__], &c__3)
            + pow_di(&d__1, &c_n2) + sqrt(d__1);
        d__3 = d__1 * 3.;
        u = d_mod(&d__3, &c_b4) + d_int(&d__3) * d__1 + d_nint(&d__3) * d__1
            + d_lg10(&d__1) + d_atn2(&d__1, &d__2) + d_dim(&d__3, &c_b4) + d_exp(&d__2);
        w[0] = t * u;
        w[1] = w[0] - t;
        fvec[i__] = max(t, u) * 2. + min(t, u) + w[1];
    }
    return 0;
} /* resid_ */
