/* adgen-test
head: resid_(f)/(x p)
arg n: int[1] = {6}
arg x: double[6] = uniform(0.3, 1.4)
arg f: double[6]
arg p: double[1] = {0.7}
link: include/f2c_runtime.c
*/
/* f2c's output as it comes, with no lengths given: every local static (f2c declares
 * them so), the loop counter too. Each call sets them before reading them, nothing
 * takes their address and the routine does not call itself, so they keep nothing from
 * one call to the next: locals of the derivative code, whose loops over `i__` bound
 * the arrays' lengths by *n (a static counter left them unknown: "give it with
 * --size f=EXPR"). The scratch array w stays static (arrays are left as they are). */
typedef int integer;
typedef double doublereal;

#define max(a,b) ((a) >= (b) ? (a) : (b))
#define min(a,b) ((a) <= (b) ? (a) : (b))

static doublereal c_b2 = 2.5;

/* Subroutine */ int resid_(integer *n, doublereal *x, doublereal *f, doublereal *p)
{
    /* System generated locals */
    integer i__1;
    doublereal d__1, d__2;

    /* Builtin functions */
    double d_sign(doublereal *, doublereal *), pow_dd(doublereal *, doublereal *),
        sqrt(doublereal);

    /* Local variables */
    static integer i__, k;
    static doublereal t, s, w[2];

    /* Parameter adjustments */
    --f;
    --x;

    /* Function Body */
    s = 0.;
    w[0] = *p;
    w[1] = 1. - *p;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        d__1 = x[i__];
        d__2 = *p - .5;
        t = d_sign(&d__1, &d__2) * pow_dd(&d__1, &c_b2);
        k = i__ % 2;
        f[i__] = t * (k == 0 ? w[0] : w[1]) + max(x[i__], .5) * min(*p, 1.) + sqrt(x[i__] + 1.);
        s += f[i__];
    }
    f[1] += s * .5;
    return 0;
} /* resid_ */
