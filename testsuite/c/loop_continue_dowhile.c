/* adgen-test
head: filtered_energy(out)/(x)
arg n: int = 12
arg x: double[n] = {0.7, -0.1, 1.3, -0.8, 0.25, 1.1, -1.5, 0.9, 1.95, 0.4, -0.6, 1.2}
arg out: double[2]
sizes: give
*/
/* The lengths are given (--size) because x is walked by while loops whose bounds adgen does not analyse:
 * adgen sets the gradient of every element it sees read, the user names the rest. */
/* continue and break in while and do-while loops: a while loop skipping small entries
 * (continue after the increment) and stopping at the first huge one (break), and a
 * do-while that skips odd positions with continue (jumping to the condition) and leaves
 * early with break once enough terms are summed. */
#include <math.h>

void filtered_energy(int n, const double *x, double *out)
{
    double e = 0.0, s = 0.0;
    int i = 0, used = 0;
    while (i < n) {
        double v = x[i];
        i++;
        if (fabs(v) < 0.3)
            continue;
        if (fabs(v) > 1.9)
            break;
        e += v * v * i;
    }
    i = -1;
    do {
        i++;
        if (i % 2 == 1)
            continue;
        s += sin(x[i]) * (1.0 + 0.1 * s);
        used++;
        if (used >= 5)
            break;
    } while (i < n - 1);
    out[0] = e;
    out[1] = s;
}
