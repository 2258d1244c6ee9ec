/* adgen-test
head: apply_(s)/(x)
expect-error: the static local 'w' of 'setup_0_' is set by 'setup_0_' (called from 'setup_'), which runs in the program's own code, and 'apply_' may read it
expect-error-line: 18
*/
/* A Fortran routine with an ENTRY as f2c translates it: one function for both, chosen by
 * n__, its SAVEd weights a static local array. The program calls setup_ first, which
 * fills the weights (n__ == 0); apply_ (n__ == 1) reads them. The output would have its
 * own copy of the array, which the program's setup_ never fills: the derivative of apply_
 * would be zero. Refused, naming the array and the routine that sets it. */
typedef int integer;
typedef double doublereal;

int setup_0_(int n__, integer *n, doublereal *x, doublereal *s)
{
    integer i__1;
    static integer i__;
    static doublereal w[50];

    --x;
    switch (n__) {
        case 1: goto L_apply;
    }
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        w[i__ - 1] = (doublereal) i__ * .1 + 1.;
    }
    return 0;

L_apply:
    *s = 0.;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        *s += w[i__ - 1] * x[i__] * x[i__];
    }
    return 0;
}

int setup_(integer *n, doublereal *x)
{
    return setup_0_(0, n, x, (doublereal *)0);
}

int apply_(integer *n, doublereal *x, doublereal *s)
{
    return setup_0_(1, n, x, s);
}
