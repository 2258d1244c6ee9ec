/* adgen-test
head: reconstruct(face)/(left right w)
arg n: int = 6
arg left: double[n] = uniform(0, 1)
arg right: double[n] = uniform(2, 3)
arg w: double[n] = uniform(-1, 1)
arg face: double[n]
*/
/* Upwind face reconstruction: for each face the upwind state array is selected by the
 * sign of a flag through a pointer-valued conditional expression (src = up ? left :
 * right), then a limited slope is applied. */
#include <math.h>

static double minmod_smooth(double a, double b)
{
    return a * b / sqrt(a * a + b * b + 1e-3);
}

void reconstruct(int n, const double *left, const double *right, const double *w, double *face)
{
    int i;
    for (i = 0; i < n; i++) {
        const int up = i % 2 == 0;
        const double *src = up ? left : right;
        const double *other = up ? right : left;
        int im = i > 0 ? i - 1 : 0;
        face[i] = src[i] + 0.5 * minmod_smooth(src[i] - src[im], other[i] - src[i]) * w[i];
    }
}
