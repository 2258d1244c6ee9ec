/* adgen-test
head: f(out)/(x)
arg x: double[6] = uniform(-1, 1)
arg out: double[2]
expect-error: '&s.a' is the address of field 'a' of a struct, and memcpy reaches 3 elements from it
expect-error-line: 19
*/
/* Must be refused: memcpy through the address of a struct's field, for more numbers than
 * the field holds, runs on into the fields after it; here a float field sits between the
 * doubles (b is not two doubles' worth of memory, and padding may follow it), so the
 * numbers copied are not the fields' values one for one. */
#include <string.h>
typedef struct { double a; float b; double c; } S;

void f(const double *x, double *out)
{
    S s;
    s.a = 1.0; s.b = 2.0f; s.c = x[5];
    memcpy(&s.a, x, 3 * sizeof(double));
    out[0] = s.a * s.b * s.c;
    out[1] = s.a + s.b + s.c;
}
