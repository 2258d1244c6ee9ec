/* adgen-test
head: residual(fvec)/(x)
head: residual(fvec x)/(x)
sizes: give
arg n: int = 5
arg x: double[n] = uniform(0.5, 1.5)
arg fvec: double[n]
*/
/* f2c's translation of a Fortran routine: each array parameter is decremented on entry
 * (`--x;`) so that the loops can run from 1 to n. The derivative code's own accesses to
 * the caller's arrays (zeroing the adjoints on entry, consuming the seeds, giving back the
 * final values of an output the backward sweep rewinds) must stay within [p, p + n),
 * whatever the routine does to its copy of p. fvec is overwritten and read again, so its
 * final values are given back after the backward sweep; x is scaled in place. */
#include <math.h>

typedef double doublereal;
typedef int integer;

void residual(integer n, doublereal *x, doublereal *fvec)
{
    integer i;
    --fvec;
    --x;
    for (i = 1; i <= n; ++i)
        fvec[i] = sin(x[i]) + 0.5 * x[i];
    for (i = 2; i <= n; ++i)
        fvec[i] = fvec[i] * fvec[i - 1];
    for (i = 1; i <= n; ++i)
        x[i] = x[i] * fvec[n];
}
