/* adgen-test
head: paired(paired)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
*/
/* The comma operator: in a for loop's initialisation and step, between two statements,
 * in a while condition (the increment done before the test), inside an expression (its
 * left operand for its effects). */
#include <math.h>

double paired(int n, const double *x)
{
    int i, j;
    double s = 0.0, t;
    for (i = 0, j = n - 1; i < j; i++, j--)
        t = x[i] * x[j], s += sin(t);
    i = 0;
    while (i++, i < n)
        s += x[i] * x[i - 1];
    t = (j = 2, x[j] * s);
    return s + t;
}
