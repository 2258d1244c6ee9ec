/* adgen-test
head: carried_(f)/(x)
expect-error: the static local 'v' of 'carried_' keeps its value from one call
expect-error-line: 18
*/
/* A static local that one path through the gotos reads before setting (the arithmetic
 * IF's L30 keeps v from the last call when t - 1 is 0): it carries state, which the
 * derivative code would change in its own copy; refused, naming it. */
typedef int integer;
typedef double doublereal;

int carried_(integer *n, doublereal *x, doublereal *f)
{
    integer i__1;
    doublereal d__1;
    static integer i__;
    static doublereal t;
    static doublereal v;

    --x;
    *f = 0.;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        t = x[i__] * x[i__];
        if ((d__1 = t - 1.) < 0.) {
            goto L20;
        } else if (d__1 == 0) {
            goto L30;
        } else {
            goto L40;
        }
L20:
        v = t * 2.;
        goto L30;
L40:
        v = t + 1.;
L30:
        *f += v * t;
    }
    return 0;
}
