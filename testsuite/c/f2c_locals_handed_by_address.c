/* adgen-test
head: outer_(f)/(x)
arg n: int[1] = {5}
arg x: double[5] = uniform(0.3, 1.4)
arg f: double[1]
*/
/* Locals of a Fortran routine as f2c translates them: static, and handed by address to
 * the routines the Fortran calls (`inner_(n, &x[1], &s, &info)`). inner_ sets s and info
 * before reading them, through its parameters, which it uses only as *s and *info or
 * hands on to a routine that does the same: every call of outer_ sets them first, so
 * they carry nothing from one call to the next, and adgen makes them locals. */
typedef int integer;
typedef double doublereal;

static doublereal c_b2 = .5;

static int scale_(doublereal *s, doublereal *t)
{
    *s = *s * *t;
    return 0;
}

static int inner_(integer *n, doublereal *x, doublereal *s, integer *info)
{
    integer i__1;
    static integer i__;

    --x;
    *info = 0;
    *s = 0.;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        *s += x[i__] * x[i__];
        if (x[i__] < 0.) {
            *info = i__;
        }
    }
    scale_(s, &c_b2);
    return 0;
}

int outer_(integer *n, doublereal *x, doublereal *f)
{
    static doublereal s;
    static integer info;

    --x;
    inner_(n, &x[1], &s, &info);
    if (info != 0) {
        *f = 0.;
        return 0;
    }
    *f = s * s + x[1];
    return 0;
}
