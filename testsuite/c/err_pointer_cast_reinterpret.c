/* adgen-test
head: approx_sqrt(approx_sqrt)/(x)
arg x: float = uniform(0.5, 2)
expect-error: reinterpretation of their bits
expect-error-line: 15
*/
/* Must be refused: the bits of the active float x are read as an integer through a
 * pointer cast (a square root by bit trick) and read back as a float. The value that
 * comes back has no derivative; accepted, the derivative of the result would be zero
 * where it is about 1/(2 sqrt(x)). */
#include <stdint.h>

float approx_sqrt(float x)
{
    int32_t bits = *(int32_t *)&x;
    float y;
    bits = 0x1fbd1df5 + (bits >> 1);
    y = *(float *)&bits;
    return y + 0.0f * x;
}
