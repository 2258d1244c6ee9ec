/* adgen-test
head: partial(y)/(x)
arg m: int[1] = {3}
arg cap: int = 6
arg x: double[3] = uniform(-1, 1)
arg y: double[1]
*/
/* An index guarded by a size held in memory (`*m`, passed by reference as Fortran and
 * f2c pass it; a struct's field `c->n` alike): the loop runs to cap, but x is read only
 * below *m, and the caller's x has *m elements. The guard limits the index as a guard
 * on a variable does: x's length is not taken from the loop's bound (its adjoint was
 * zeroed over cap elements, past the caller's array). */
void partial(const int *m, int cap, const double *x, double *y)
{
    int i;
    *y = 0.0;
    for (i = 0; i < cap; i++)
        if (i < *m)
            *y += x[i] * x[i] * (1.0 + i);
}
