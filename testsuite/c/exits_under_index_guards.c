/* adgen-test
head: blur_same(out)/(img)
arg h: int = 5
arg w: int = 4
arg img: double[h*w]
arg out: double[h*w]
head: neighbour_products(y)/(x)
arg n: int = 6
arg x: double[n]
arg y: double[n]
head: skip_last(y)/(x)
arg n: int = 6
arg x: double[n]
arg y: double[n]
head: pair_sum(pair_sum)/(x)
arg n: int = 7
arg x: double[n]
*/
/* Reads placed after an exit that a condition on the indices takes: `continue` past the
 * border of a 3x3 stencil ("same" padding), `break` and `return` before reading one past
 * the end, and f2c's `goto` to the end of the loop body. The read runs only where the
 * condition did not hold, so it gives no length of its own (as under `if`): the lengths
 * of img and x were taken from the indices as if the exits were not there (h*w + w + 1,
 * n + 1), and the adjoint zeroed that many elements of imgb and xb, past their ends. */
#include <math.h>

void blur_same(int h, int w, const double *img, double *out)
{
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            double s = 0.0;
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++) {
                    int ii = i + di, jj = j + dj;
                    if (ii < 0 || ii >= h || jj < 0 || jj >= w)
                        continue;
                    s += img[ii * w + jj] * (di == 0 && dj == 0 ? 0.5 : 0.0625);
                }
            out[i * w + j] = s * s;
        }
}

void neighbour_products(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = x[i];
        if (i + 1 >= n)
            break;
        y[i] = x[i + 1] * x[i];
    }
}

void skip_last(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++) {
        y[i] = sin(x[i]);
        if (i + 1 >= n)
            goto L10;
        y[i] += x[i + 1] * x[i];
L10:
        ;
    }
}

double pair_sum(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        if (i + 2 > n)
            return s;
        s += x[i + 1] * exp(x[i]);
    }
    return s;
}
