/* adgen-test
head: branches_(f)/(x)
arg n: int[1] = {6}
arg x: double[6] = uniform(0.2, 1.8)
arg f: double[1]
*/
/* Fortran's GOTO branches as f2c translates them, its locals declared static: an
 * arithmetic IF (three labels, each setting v before L50 reads it), a computed GOTO
 * (a switch of gotos), a loop of `if (...) goto`. Every path sets t, u and v before
 * reading them, which only the jumps as written show: adgen makes them locals, and the
 * derivative code runs without a copy of the program's static variables. */
typedef int integer;
typedef double doublereal;

int branches_(integer *n, doublereal *x, doublereal *f)
{
    integer i__1;
    doublereal d__1;
    static integer i__, idx;
    static doublereal t, u, v;

    --x;
    *f = 0.;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        t = x[i__] * x[i__];
        u = x[i__] - .5;
        if ((d__1 = t - 1.) < 0.) {
            goto L20;
        } else if (d__1 == 0) {
            goto L30;
        } else {
            goto L40;
        }
L20:
        v = t * u;
        goto L50;
L30:
        v = t;
        goto L50;
L40:
        v = t * t + 1. + u;
L50:
        idx = i__ % 3 + 1;
        switch (idx) {
            case 1:  goto L60;
            case 2:  goto L70;
            case 3:  goto L80;
        }
L60:
        *f += v;
        goto L10;
L70:
        *f += v * 2.;
        goto L10;
L80:
        *f = *f + v / 3.;
L10:
        ;
    }
    return 0;
}
