/* adgen-test
head: accum_(y)/(a x)
head: accum_(y a)/(a x)
arg m: int[1] = {3}
arg n: int[1] = {4}
arg a: double[12]
arg x: double[4] = uniform(0.5, 1.5)
arg y: double[4]
*/
/* f2c sets one variable, i__1, to the bound of each loop in turn (`i__1 = *m;` before a
 * loop over m, `i__1 = *n;` before one over n), and i__2 for the loops inside them. The
 * lengths of y, a and x come from those loops: each bound is the value set just before its
 * loop, also f2c's min and max of sizes (the bound one of them, whichever it is). With
 * the variable set twice, or set to min or max, adgen gave none ("an index of 'y' has no
 * known bound"), and y, a dependent whose values are read, needs one. */
typedef int integer;
typedef double doublereal;
#define min(a,b) ((a) <= (b) ? (a) : (b))
#define max(a,b) ((a) >= (b) ? (a) : (b))

/* Subroutine */ int accum_(integer *m, integer *n, doublereal *a, doublereal *x,
        doublereal *y)
{
    integer a_dim1, a_offset, i__1, i__2;
    static integer i__, j;
    static doublereal t;

    --y;
    --x;
    a_dim1 = *m;
    a_offset = a_dim1 + 1;
    a -= a_offset;

    i__1 = *m;
    for (i__ = 1; i__ <= i__1; ++i__) {
        y[i__] *= .5;
    }
    i__1 = *n;
    for (j = 1; j <= i__1; ++j) {
        t = x[j] * x[j];
        i__2 = *m;
        for (i__ = 1; i__ <= i__2; ++i__) {
            y[i__] += t * a[i__ + j * a_dim1];
            a[i__ + j * a_dim1] *= x[j];
        }
        i__2 = j;
        for (i__ = 1; i__ <= i__2; ++i__) {
            y[j] += x[i__] * 0.25;
        }
    }
    i__1 = min(*m,*n);
    for (i__ = 1; i__ <= i__1; ++i__) {
        y[i__] += x[i__] * x[i__ + 1];
    }
    i__1 = max(*m,*n);
    for (i__ = 1; i__ <= i__1; i__ += 2) {
        y[i__] *= x[i__];
    }
    return 0;
}
