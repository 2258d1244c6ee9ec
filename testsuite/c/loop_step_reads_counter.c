/* adgen-test
head: f(y)/(x)
arg n: int = 20
arg x: double[n] = uniform(0.2, 1.2)
arg y: double[n]
sizes: give
*/
/* Loops whose step reads their own counter (`i += i`, `i -= -i`, `i += i / 2 + 1`,
 * `i += 1 + (i > 2)`): no fixed stride, so the backward sweep cannot compute a step's
 * counter from its number; it is stored (before: computed as if the step were a stride,
 * reaching elements outside the arrays and giving a wrong adjoint). */
#include <math.h>

void f(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = x[i];
    for (i = 1; i < n; i += i)
        y[i - 1] = y[i - 1] * y[i];
    for (i = 1; i < n; i -= -i)
        y[i] = y[i] + 0.5 * y[i - 1] * y[i - 1];
    for (i = 0; i < n; i += i / 2 + 1)
        y[i] = sin(y[i]) * x[i];
    for (i = 0; i < n; i += 1 + (i > 2))
        y[i] = y[i] * y[(i + 1) % n];
}
