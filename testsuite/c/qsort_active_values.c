/* adgen-test
head: trimmed_mean(trimmed_mean)/(x)
arg n: int = 7
arg x: double[n] = uniform(-1, 1)
head: nearest_weighted(out)/(pts)
arg m: int = 5
arg pts: double[2*m] = uniform(-1, 1)
arg out: double[3]
head: sort_squares(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg y: double[n]
*/
/* qsort of numbers that carry derivatives, and of structs keyed by one: the derivatives
 * move with the values into their sorted places. */
#include <stdlib.h>
#include <string.h>
#include <math.h>

static int ascending(const void *a, const void *b)
{
    double da = *(const double *)a, db = *(const double *)b;
    return (da > db) - (da < db);
}

double trimmed_mean(int n, const double *x)
{
    double *s = malloc(n * sizeof *s);
    memcpy(s, x, n * sizeof *s);
    for (int i = 0; i < n; i++) s[i] = s[i] * s[i] + 0.1 * x[(i + 1) % n];
    qsort(s, n, sizeof *s, ascending);
    double m = 0;
    for (int i = 1; i < n - 1; i++) m += s[i] * (i + 1);
    free(s);
    return m / (n - 2);
}

typedef struct { double dist, w; int id; } Candidate;

static int farther_first(const void *pa, const void *pb)
{
    const Candidate *a = pa, *b = pb;
    return a->dist < b->dist ? 1 : a->dist > b->dist ? -1 : 0;
}

void nearest_weighted(int m, const double *pts, double *out)
{
    Candidate c[8];
    for (int i = 0; i < m; i++) {
        c[i].dist = hypot(pts[2 * i] - 0.2, pts[2 * i + 1] + 0.1);
        c[i].w = exp(-pts[2 * i]);
        c[i].id = i;
    }
    qsort(c, (size_t)m, sizeof(Candidate), &farther_first);
    out[0] = c[m - 1].dist * c[m - 1].w;
    out[1] = c[m - 2].dist + c[0].w * c[0].id;
    out[2] = c[1].w / (1.0 + c[2].dist);
}

static int by_value(const void *a, const void *b)
{
    const double *u = a, *v = b;
    return *u < *v ? -1 : *u > *v;
}

void sort_squares(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = x[i] * x[i] - x[0];
    qsort(y, n, sizeof y[0], by_value);
}
