/* regress: an update y[0] += e undone (x -= e) in the backward sweep, then a later y[0] += 0.5*tanh(s) left unsaved as covered by that save: the undoing read the later value; undone writes now make no fact and void the facts on their memory; fuzz seed 303271 */
/* adgen-test
head: fz_head(y z)/(x z)
arg n: int = 3
arg y: double[n]
arg z: double[n]
arg x: double[n] = uniform(0, 1)
tol: 1e-5
sizes: give
seed: 272
*/
#include <math.h>

void fz_head(int n, double *y, double *z, const double *x)
{
    int i;
    int j;
    int l;
    double sink = 0.0;
    for (i = 0; i < n; i++) {
        y[i] = 0.0 + 0.1 * x[i / 2];
    }
    for (i = 0; i < n; i++) {
        int cnt1 = 0;
        if (sin(y[i / 2]) > 0.1) {
            continue;
        }
        for (j = n - 1; j >= 0; j--) {
            if (x[j] >= 0.25 * (double)j) {
                cnt1--;
            }
            double s1 = sin(cos(y[j]) * (0.25 * cnt1)) / (2.0 + z[i / 2] * z[i / 2]);
            for (l = 1; l < n; ++l) {
                double s2 = 0.6 * (fmax(0.1 * i, z[l]) + atan(y[j]) * cos(y[j]));
                if (l == 2) {
                    break;
                }
                sink += 0.1 * s2;
            }
            if (cos(y[n - 1 - i]) < (-0.1)) {
                continue;
            }
            sink += 0.1 * s1;
        }
    }
    y[0] += 0.25 * (double)n;
    double s3 = 0.6 * (0.25 - sqrt(2.0 + (-0.5) * (-0.5)) * hypot(x[1], 0.5 + x[0] * x[0]));
    s3 = 3.0 * tanh(fmin(exp(0.5 * sin(s3)) + ((((((z[1] >= 0.1 * n) ? s3 : x[1]) >= 3.0) ? s3 : 0.25) < 0.0) ? s3 : -0.8), atan(hypot(-0.8, 1.0 + (2.0 - s3) * (2.0 - s3)))));
    z[0] = z[2];
    int k1 = 1;
    while (k1 < 3 && z[k1] > (-0.1)) {
        int cnt2 = 0;
        for (j = 0; j <= 4 - 1; j++) {
            if (z[(k1 + 1) % n] <= s3) {
                ++cnt2;
            }
            s3 /= 0.5 + atan(y[k1]) * 2.0 * (atan(y[k1]) * 2.0);
        }
        ++k1;
        sink += 0.1 * (0.01 * cnt2);
    }
    y[0] += 0.5 * tanh(sink);
}
