/* adgen-test
head: copy_out(out)/(x)
arg x: double[4] = uniform(-1, 1)
arg out: double[3]
expect-error: '&s.a' is the address of field 'a' of a struct, and memcpy reaches 3 elements from it
expect-error-line: 15
*/
/* Must be refused: memcpy from the address of a struct's field, for its three fields a, b
 * and c; the derivatives of out[1] and out[2] were silently zero. */
#include <string.h>

void copy_out(const double *x, double *out)
{
    struct triple { double a, b, c; } s = {x[0] * x[1], x[2] * x[3], x[3]};
    memcpy(out, &s.a, 3 * sizeof(double));
}
