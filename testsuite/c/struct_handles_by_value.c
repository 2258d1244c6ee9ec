/* adgen-test
head: energy(energy)/(x w)
arg n: int = 4
arg x: double[n] = uniform(-1, 1)
arg w: double = 0.7
*/
/* Small structs holding pointers, passed and returned by value as C code passes handles:
 * a constructor returning a Matrix whose data it allocates, a destructor taking it by
 * value, a view of an array with a floating-point scale, a function changing its copy of
 * a view (walking its pointer), one returning a new matrix built from another, and a
 * handle overwritten in a loop. */
#include <math.h>
#include <stdlib.h>

typedef struct {
    int rows, cols;
    double *a;
} Matrix;

typedef struct {
    int n;
    double scale;
    double *v;
} Vec;

static Matrix mat_new(int rows, int cols)
{
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.a = malloc((size_t)rows * cols * sizeof(double));
    return m;
}

static void mat_free(Matrix m)
{
    free(m.a);
}

static void outer(Matrix m, const double *x)
{
    int i, j;
    for (i = 0; i < m.rows; i++)
        for (j = 0; j < m.cols; j++)
            m.a[i * m.cols + j] = x[i] * x[j] + 0.1 * (i - j);
}

static Matrix mat_map(Matrix m, double c)
{
    Matrix r = mat_new(m.rows, m.cols);
    int k;
    for (k = 0; k < m.rows * m.cols; k++)
        r.a[k] = c * sin(m.a[k]) + m.a[k] * m.a[k];
    return r;
}

static Vec vec_view(double *data, int n, double scale)
{
    Vec v;
    v.n = n;
    v.scale = scale;
    v.v = data;
    return v;
}

/* changes its copy: the caller's view stays as it was */
static Vec vec_tail(Vec v, double d)
{
    v.scale = v.scale * d;
    v.v = v.v + 1;
    v.n = v.n - 1;
    return v;
}

static double vec_dot(Vec u, Vec v)
{
    int n = u.n < v.n ? u.n : v.n;
    double s = 0.0;
    int i;
    for (i = 0; i < n; i++)
        s = s + u.v[i] * v.v[i];
    return u.scale * v.scale * s;
}

double energy(int n, const double *x, double w)
{
    Matrix m = mat_new(n, n);
    Matrix r;
    Vec u, t;
    double s = 0.0;
    int it;
    outer(m, x);
    for (it = 0; it < 3; it++) {
        r = mat_map(m, w);
        u = vec_view(r.a, n * n, w * w);
        t = vec_tail(u, 0.5 + w);
        s = s + vec_dot(u, u) + vec_dot(t, u) * u.scale;
        m.a[it] = m.a[it] * cos(s) + 0.1 * s;
        mat_free(r);
    }
    mat_free(m);
    return s;
}
