/* adgen-test
head: f(out)/(x)
arg x: double[6] = uniform(-1, 1)
arg out: double[2]
expect-error: '&s.a' is the address of field 'a' of a struct, and memcpy reaches 2 elements from it
expect-error-line: 18
*/
/* Must be refused: memcpy through the address of a struct's field, for more numbers than
 * the field holds, writes the fields after it too (here a and b); adgen keeps a struct's
 * fields apart, so s.b's derivative would not follow (it was silently wrong). */
#include <string.h>
typedef struct { double a, b, c; } S;

void f(const double *x, double *out)
{
    S s;
    s.a = 1.0; s.b = 2.0; s.c = x[5];
    memcpy(&s.a, x, 2 * sizeof(double));
    out[0] = s.a * s.b * s.c;
    out[1] = s.a + s.b + s.c;
}
