/* adgen-test
head: g(g)/(x)
arg x: double = 0.3
arg n: int = 2
expect-error: '&s.b' is the address of field 'b' of a struct, and memset reaches n elements from it
expect-error-line: 15
*/
/* Must be refused: memset through the address of a struct's field that is one number, for
 * a count known at run time only: how many of the fields after it are zeroed (and whether
 * the block stays within the struct) cannot be told. */
#include <string.h>
double g(double x, int n)
{
    struct { double a, b, c; } s = {x, x * x, 3.0 * x};
    memset(&s.b, 0, n * sizeof(double));
    return s.a + s.b + s.c;
}
