/* adgen-test
head: neighbours(neighbours)/(x)
arg n: int = 7
arg x: double[n] = uniform(0.5, 1.5)
*/
/* The element after x[i] read only where a condition in the expression keeps it inside
 * the array: a conditional expression, && and ||. With the lengths inferred, the guard
 * was not seen there, x's length was taken to be n + 1, and the adjoint zeroed one
 * element past the end of the caller's xb (the if statement's guard was seen). */
#include <math.h>

double neighbours(int n, const double *x)
{
    double t = 1.0, s = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        t = i + 1 < n ? sin(x[i + 1]) * t : t + x[i];
        if (i + 1 < n && x[i + 1] > 1.0)
            s += x[i];
        if (i + 1 >= n || x[i + 1] < 0.9)
            s += x[i] * x[i];
    }
    return t + s;
}
