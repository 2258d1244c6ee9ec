/* adgen-test
head: f(y)/(x)
arg n: int = 3
arg x: double[n] = {0.3, -0.5, 1.2}
arg y: double[1]
*/
/* memcpy into an array field of a struct with a count known at run time only, from the
 * field's start and from one of its elements: taken to stay within the field, as the
 * program's own indexing of it is (a constant count past the field is refused:
 * err_memcpy_past_field.c). */
#include <string.h>
typedef struct { double v[8]; double w; int m; } Buf;
void f(int n, const double *x, double *y)
{
    Buf b;
    int i;
    memset(&b, 0, sizeof b);
    memcpy(b.v, x, (size_t)n * sizeof(double));
    memcpy(&b.v[1], x, (size_t)(n - 1) * sizeof(double));
    b.w = 2.0;
    y[0] = b.w;
    for (i = 0; i < n; i++)
        y[0] += b.v[i] * b.v[i];
}
