/* adgen-test
head: fast_inv_sqrt(fast_inv_sqrt)/(x)
arg x: double = uniform(0.5, 2)
expect-error: union
expect-error-line: 13-16, 18-20
*/
/* Must be refused: a union reinterprets the bits of an active double as an integer
 * (the classic inverse square root trick), which has no derivative. */
#include <stdint.h>

double fast_inv_sqrt(double x)
{
    union {
        double d;
        int64_t i;
    } u;
    double y;
    u.d = x;
    u.i = 0x5fe6eb50c7b537a9 - (u.i >> 1);
    y = u.d;
    return y * (1.5 - 0.5 * x * y * y);
}
