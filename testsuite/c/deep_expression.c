/* adgen-test
head: deep(deep)/(x)
arg n: int = 3
arg x: double[4] = uniform(-1, 1)
*/
/* One value nested 150 operations deep (math calls, products, sums), in a loop that carries
 * s into the next evaluation: adgen computes it in pieces of 32 levels, each into a
 * temporary, so that the derivative code grows with the depth, not with its square; the
 * pieces are overwritten at every iteration. */
#include <math.h>

double deep(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double y =
            ((sin(0.5 * (sin(((exp(0.01 * (0.5 * ((((exp(0.01 * (0.5 * (sin(((exp(0.01 *
            (0.5 * (sin(((exp(0.01 * (sin(sin(((exp(0.01 * (0.5 * (sin(0.5 * ((exp(0.01 *
            (0.5 * (sin(((sin(0.5 * (sin(((exp(0.01 * (0.5 * ((((exp(0.01 * (0.5 *
            (sin(((exp(0.01 * (0.5 * (sin(((exp(0.01 * (sin(sin(((exp(0.01 * (0.5 *
            (sin(sin((exp(0.01 * (0.5 * (sin(((0.5 * (0.5 * (sin(((exp(0.01 * (0.5 *
            ((((exp(0.01 * (0.5 * (sin((sin(exp(0.01 * (0.5 * (sin(((exp(0.01 *
            ((sin(((exp(0.01 * (0.5 * (sin(exp(0.01 * ((exp(0.01 * (0.5 * (sin(((sin(0.5 *
            (sin(((exp(0.01 * (0.5 * ((((exp(0.01 * (0.5 * (sin((sin(exp(0.01 * (0.5 *
            (sin(((exp(0.01 * (sin(sin(((exp(0.01 * (0.5 * (sin(((exp(0.01 * (0.5 *
            (sin(((0.5 * (0.5 * (sin(((exp(0.01 * (0.5 * (exp(0.01 * (x[0]))) + x[2]))) *
            (1.0 + 0.1 * x[0])) + x[1] * s)) + x[3]) + x[0]) * (1.0 + 0.1 * x[1])) + x[2] *
            s)) + x[0]))) * (1.0 + 0.1 * x[2])) * (1.0 + 0.1 * x[3]))) + x[1]))) * (1.0 +
            0.1 * x[3])) + x[0] * s))))) * (1.0 + 0.1 * x[0])) + x[1] * s)) + x[3])))) +
            x[2] * s)) + x[0]))) * (1.0 + 0.1 * x[2])) + x[3] * s) + x[0] * s) + x[1]))) *
            (1.0 + 0.1 * x[3])) + x[0] * s)) + x[2])) * (1.0 + 0.1 * x[0])) + x[1] * s)) +
            x[3]))) * (1.0 + 0.1 * x[1]))))) + x[0]))) * (1.0 + 0.1 * x[2])) + x[3] * s)) +
            x[1] * s))) * (1.0 + 0.1 * x[3])) + x[0] * s)) + x[2])))) + x[1] * s)) +
            x[3]))) * (1.0 + 0.1 * x[1])) + x[2] * s) + x[3] * s) + x[0]))) * (1.0 + 0.1 *
            x[2])) + x[3] * s)) + x[1]) + x[2]) * (1.0 + 0.1 * x[3])) + x[0] * s)) +
            x[2]))) * (1.0 + 0.1 * x[0])))) + x[3]))) * (1.0 + 0.1 * x[1])) + x[2] * s)))))
            * (1.0 + 0.1 * x[2])) + x[3] * s)) + x[1]))) * (1.0 + 0.1 * x[3])) + x[0] * s))
            + x[2]))) * (1.0 + 0.1 * x[0])) + x[1] * s) * (1.0 + 0.1 * x[2])) + x[3]))) *
            (1.0 + 0.1 * x[1])) + x[2] * s)) + x[0])) * (1.0 + 0.1 * x[2])) + x[3] * s)) +
            x[1]))) * (1.0 + 0.1 * x[3])) + x[0])) + x[2]))) * (1.0 + 0.1 * x[0])) + x[1] *
            s))))) * (1.0 + 0.1 * x[1])) + x[2] * s)) + x[0]))) + x[2] * s) + x[3] * s)) +
            x[1]))) * (1.0 + 0.1 * x[3])) + x[0] * s) * (1.0 + 0.1 * x[1])) + x[2]))) *
            (1.0 + 0.1 * x[0])) + x[1] * s)) + x[3])) * (1.0 + 0.1 * x[1])) + x[2] * s;
        s = 0.5 * s + 0.1 * y;
    }
    return s;
}
