/* adgen-test
head: f(f)/(x)
arg x: double[4] = uniform(-1, 1)
*/
/* The address of a struct's field, or of an element of an array field, used within the
 * field: memcpy and memset of as many numbers as it holds from there, indexed within it,
 * handed to a function, or set to a pointer, that reads or writes no further. */
#include <string.h>
typedef struct { double a; double v[3]; double b; } S;

static void twice(double *p) { *p = 2.0 * p[0]; }
static double pair(const double *p) { return p[0] * p[1]; }

double f(const double *x)
{
    S s;
    memset(&s, 0, sizeof s);
    memcpy(&s.a, &x[3], sizeof(double));
    memcpy(&s.v[1], x, 2 * sizeof(double));
    memcpy(&s.b, &s.v[2], sizeof s.b);
    memset(&s.v[0], 0, sizeof(double));
    twice(&s.v[1]);
    twice(&s.a);
    s.a += (&s.b)[0] * x[2];
    double *q = &s.v[1];
    q[1] = q[1] * q[0] + (&s.v[0])[2];
    return s.a * s.v[1] + s.v[2] * s.b + s.v[0] + pair(&s.v[1]);
}
