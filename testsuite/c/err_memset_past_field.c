/* adgen-test
head: g(g)/(x)
arg x: double = 0.3
expect-error: '&s.b' is the address of field 'b' of a struct, and memset reaches 2 elements from it
expect-error-line: 14
*/
/* Must be refused: memset through the address of a struct's field, for more numbers than
 * the field holds, zeroes the fields after it too (b and c); the derivative of s.c was
 * left as it was. */
#include <string.h>
double g(double x)
{
    struct { double a, b, c; } s = {x, x * x, 3.0 * x};
    memset(&s.b, 0, 2 * sizeof(double));
    return s.a + s.b + s.c;
}
