/* adgen-test
head: spread(z)/(c z)
arg n: int = 5
arg c: double[n]
arg z: double[n]
flags: -I include
*/
/* A CBLAS copy with a stride of 2 writes z[0] and z[2] and leaves z[1] as it was: z's
 * seed must survive on z[1] (the built-in rule makes the copy's Y in/out). Found by the
 * fuzzer (seed 1058 of the generator with CBLAS calls). */
#ifdef __adgen__
#include <cblas.h>
#else
#include "cblas_reference.h"     /* a BLAS library's part, when the primal is compiled */
#endif
#include <math.h>

void spread(int n, const double *c, double *z)
{
    z[1] = sin(z[1]) + c[4];
    cblas_dcopy(2, c, 2, z, 2);
    z[n - 2] = z[1] * z[2] + cos(z[0]);
}
