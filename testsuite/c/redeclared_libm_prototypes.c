/* adgen-test
head: damped(damped)/(x k)
arg n: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg k: double = 0.7
*/
/* Older code declares the library functions it calls itself, beside or instead of
 * <math.h>: such a prototype names the standard function, with its derivative. */
#include <math.h>

double pow(double, double);
extern double sin(double);
extern double exp(double x);
double sqrt(double);

double damped(int n, const double *x, double k)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s += pow(x[i], 2.5) * sin(k * x[i]) + exp(-k) * sqrt(x[i]);
    return s;
}
