/* adgen-test
head: ridge_loss(ridge_loss)/(beta)
head: ridge_loss(ridge_loss)/(beta x)
arg n: int = 8
arg p: int = 3
arg x: double[n*p] = uniform(-1, 1)
arg y: double[n] = uniform(-1, 1)
arg beta: double[p] = uniform(-1, 1)
flags: -I include
*/
/* Ridge regression loss using the shared header include/vec_utils.h: typedef real, the
 * macros IDX2, SQR and RIDGE_LAMBDA and the header's static inline dot_n. */
#include "vec_utils.h"

real ridge_loss(int n, int p, const real *x, const real *y, const real *beta)
{
    real loss = 0;
    int i;
    for (i = 0; i < n; i++) {
        real pred = dot_n(p, &x[IDX2(i, 0, p)], beta);
        loss += SQR(pred - y[i]);
    }
    return loss / (2 * n) + RIDGE_LAMBDA * dot_n(p, beta, beta);
}
