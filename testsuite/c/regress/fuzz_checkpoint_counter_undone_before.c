/* regress (fuzz seed 4100258, minimized): a checkpointed loop whose counter i is the counter of an earlier loop left by break, which the backward sweep undoes (i = i - 1) from the value i had after it: the checkpointed loop overwrote i and did not keep it, so the earlier loop was undone from the wrong i (wrong gradient); the counter is now kept as any loop keeps it when the backward sweep reads its value before the loop */
/* adgen-test
head: fz_head(y fz_head)/(a)
arg n: int = 5
arg b: double = 0.75
arg y: double[n]
arg a: double = uniform(-1, 1)
tol: 1e-5
sizes: give
seed: 259
*/
#include <math.h>

double fz_head(int n, double b, double *y, double a)
{
    int i;
    int j;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = b;
    }
    double acc3 = 0.0;
    for (i = 0; i < n; i++) {
        if ((double)i > 0.1) {
            break;
        }
        double s2 = (i >= 1) ? a : acc3;
        sink += s2;
    }
    #pragma adgen binomial_ckp(5, 1, 0)
    for (i = n - 1; i >= 0; --i) {
        double t1[3];
        for (j = 0; j < 3; j++) {
            t1[j] = a;
        }
        sink += t1[0];
    }
    return sink;
}
