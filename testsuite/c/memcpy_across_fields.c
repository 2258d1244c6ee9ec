/* adgen-test
head: copy_in(out)/(x)
arg x: double[6] = uniform(-1, 1)
arg out: double[2]
head: copy_out(out)/(x)
arg x: double[4] = uniform(-1, 1)
arg out: double[3]
head: clear_tail(clear_tail)/(x)
arg x: double = 0.3
head: shift(out)/(x)
arg x: double[5] = uniform(-1, 1)
arg out: double[5]
head: through_pointer(out)/(x)
arg x: double[6] = uniform(-1, 1)
arg out: double[1]
*/
/* memcpy, memset and memmove through the address of a struct's field for consecutive
 * fields of one number type: the copy of each field it covers, with its derivative. */
#include <math.h>
#include <string.h>
typedef struct { double a, b, c; } S;
typedef struct { double v[2]; double w, z; int n; } Mixed;

void copy_in(const double *x, double *out)
{
    S s;
    s.a = 1.0; s.b = 2.0; s.c = x[5];
    memcpy(&s.a, x, 2 * sizeof(double));
    out[0] = s.a * s.b * s.c;
    out[1] = s.a + s.b + s.c;
}

void copy_out(const double *x, double *out)
{
    struct triple { double a, b, c; } s = {x[0] * x[1], x[2] * x[3], x[3]};
    memcpy(out, &s.a, 3 * sizeof(double));
    out[2] *= out[1];
}

double clear_tail(double x)
{
    struct { double a, b, c; } s = {x, x * x, 3.0 * x};
    memset(&s.b, 0, 2 * sizeof(double));
    return s.a + s.b + s.c;
}

void shift(const double *x, double *out)
{
    Mixed m = {{x[0], x[1] * x[1]}, x[2], sin(x[3]), 4};
    memmove(&m.v[1], m.v, 3 * sizeof(double));      /* overlapping: v[0..2] to v[1..3] */
    out[0] = m.v[0]; out[1] = m.v[1]; out[2] = m.w; out[3] = m.z * m.n;
    memmove(m.v, &m.w, 2 * sizeof m.w);
    out[4] = m.v[0] * m.v[1] + x[4];
}

static void load(Mixed *m, const double *src)
{
    memcpy(&m->v[1], src, 2 * sizeof(double));
    memcpy(&m->w, &src[2], 2 * sizeof(double));
}

void through_pointer(const double *x, double *out)
{
    Mixed m;
    m.v[0] = x[0];
    m.n = 2;
    load(&m, x + 1);
    out[0] = m.v[0] * m.v[1] + m.w * m.z * m.n + x[5] * m.v[1];
}
