/* adgen-test
head: resid_(r__)/(x)
arg n: int[1] = {4}
arg x: double[4] = uniform(0.3, 1.3)
arg r__: double[4]
sizes: give
link: include/f2c_runtime.c
*/
/* f2c's calls of its own translated routines: constants are statics passed by address
 * (`ddot_(n, x, &c__1, y, &c__1)`), which the callee only reads. They were taken for
 * state the derivative code changes ("the static global 'c__1' keeps its value from one
 * call of 'resid_' to the next"). i_dnnt, libf2c's NINT, picks a weight. */
typedef int integer;
typedef double doublereal;

static integer c__1 = 1;
static integer c_n1 = -1;

doublereal ddot_(integer *n, doublereal *dx, integer *incx, doublereal *dy, integer *incy)
{
    integer i__1;
    static integer i__, ix, iy;
    static doublereal dtemp;

    --dy;
    --dx;
    dtemp = 0.;
    ix = 1;
    iy = 1;
    if (*incx < 0) {
        ix = (-(*n) + 1) * *incx + 1;
    }
    if (*incy < 0) {
        iy = (-(*n) + 1) * *incy + 1;
    }
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        dtemp += dx[ix] * dy[iy];
        ix += *incx;
        iy += *incy;
    }
    return dtemp;
}

/* Subroutine */ int resid_(integer *n, doublereal *x, doublereal *r__)
{
    integer i__1;
    doublereal d__1;
    static integer i__;
    static doublereal s, t;
    integer i_dnnt(doublereal *);

    --r__;
    --x;
    s = ddot_(n, &x[1], &c__1, &x[1], &c__1);
    t = ddot_(n, &x[1], &c_n1, &x[1], &c__1);
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        d__1 = x[i__] * 2.;
        r__[i__] = s * x[i__] + t * x[*n + 1 - i__] * (doublereal) (i_dnnt(&d__1) % 3 + 1);
    }
    return 0;
}
