/* adgen-test
head: outer_(f)/(x)
expect-error: the static local 's' of 'outer_' keeps its value from one call
expect-error-line: 27
*/
/* A static local handed by address to a routine that reads it before setting it (an
 * accumulator the routine adds to): the value kept from the last call of outer_ is read,
 * which is state the derivative code would change in its own copy; refused, naming it. */
typedef int integer;
typedef double doublereal;

static int accumulate_(integer *n, doublereal *x, doublereal *s)
{
    integer i__1;
    static integer i__;

    --x;
    i__1 = *n;
    for (i__ = 1; i__ <= i__1; ++i__) {
        *s += x[i__] * x[i__];
    }
    return 0;
}

int outer_(integer *n, doublereal *x, doublereal *f)
{
    static doublereal s;

    --x;
    accumulate_(n, &x[1], &s);
    *f = s * 2.;
    return 0;
}
