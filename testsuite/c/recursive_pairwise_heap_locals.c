/* adgen-test
head: f(y)/(x)
arg n: int = 8
arg x: double[n] = uniform(0.3, 0.9)
arg y: double[1]
sizes: give
*/
/* A pairwise recursion that writes its halves' results through the addresses of its
 * locals (kept on the heap from its forward sweep to its backward sweep) and computes the
 * split point after a branch: the backward sweep sets the split point again on entering
 * that branch, as the forward sweep set it. */
#include <math.h>

static void half(const double *v, int lo, int hi, double *out)
{
    double a, b;
    int mid;
    if (hi - lo <= 1) {
        *out = sin(v[lo]) * v[lo];
        return;
    }
    mid = lo + (hi - lo) / 2;
    half(v, lo, mid, &a);
    half(v, mid, hi, &b);
    *out = a * b + a;
}

void f(int n, const double *x, double *y)
{
    half(x, 0, n, y);
}
