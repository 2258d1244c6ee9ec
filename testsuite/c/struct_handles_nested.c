/* adgen-test
head: run(run x y)/(x y w)
arg n: int = 4
arg x: double[n] = uniform(-1, 1)
arg y: double[n] = uniform(-1, 1)
arg w: double = 0.7
*/
/* Handles inside handles: a struct of two spans (each a pointer and a length) and a
 * weight, built by value from spans kept in an array, passed by value to a function that
 * writes through one span's pointer and reads the other's; which array each span points
 * to changes from one call to the next. */
#include <math.h>

typedef struct {
    double *v;
    int n;
} Span;

typedef struct {
    Span a, b;
    double w;
} Pair;

static Span span_of(double *v, int n)
{
    Span s;
    s.v = v;
    s.n = n;
    return s;
}

static Pair pair_of(Span a, Span b, double w)
{
    Pair p;
    p.a = a;
    p.b = b;
    p.w = w;
    return p;
}

static double cross(Pair p)
{
    double s = 0.0;
    int i;
    for (i = 0; i < p.a.n && i < p.b.n; i++) {
        p.a.v[i] = p.a.v[i] * p.w + sin(p.b.v[i]);
        s += p.a.v[i] * p.b.v[i];
    }
    return s;
}

double run(int n, double *x, double *y, double w)
{
    Span sp[2];
    Pair p;
    double s = 0.0;
    int k;
    sp[0] = span_of(x, n);
    sp[1] = span_of(y, n);
    for (k = 0; k < 3; k++) {
        p = pair_of(sp[k % 2], sp[(k + 1) % 2], w);
        s += cross(p);
    }
    return s;
}
