/* adgen-test
head: fill(fill)/(x)
arg x: double = uniform(-1, 1)
expect-error: memset with a non-zero fill value is not supported
expect-error-line: 19
*/
/* Must be refused: memset of a struct with a value other than zero sets every byte of
 * its doubles, a bit pattern that is no value derived from anything (memset to zero of
 * structs is supported: memset_structs.c). */
#include <string.h>

typedef struct {
    double a, b;
} Pair;

double fill(double x)
{
    Pair p;
    memset(&p, 0xff, sizeof p);
    p.a = x;
    return p.a * x + (p.b != p.b);
}
