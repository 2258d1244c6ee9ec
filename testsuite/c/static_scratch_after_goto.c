/* adgen-test
head: f(f)/(x a)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg a: double = 0.7
sizes: give
*/
/* Scratch values kept in static globals (each call sets them before reading them), in a
 * loop whose `goto next` skips the rest of an iteration and whose inner loop is left by a
 * `goto done`. The gotos become flags, and the setting and the reading of s3 land in two
 * branches on the same flag (`if (!goto_next) { s3 = ..; } ... if (!goto_next) { .. s3
 * .. }`): the reading follows the setting on every path, so s3 carries nothing from one
 * call to the next and the output may keep a copy of its own. */
#include <math.h>

static double s3, s4;

double f(int n, const double *x, double a)
{
    double sink = 0.0;
    int i, j;
    for (i = n - 1; i >= 1; i -= 2) {
        if (i > 3)
            goto next;
        s3 = 0.6 * sin(x[i] * a);
        for (j = 0; j < i; j++) {
            if (j % 2 == 1)
                goto done;
            s4 = atan(x[n - 1 - i] * s3);
            sink += 0.1 * s4 * x[j];
        }
done:
        sink += 0.1 * s3 * s3;
next:;
    }
    return sink;
}
