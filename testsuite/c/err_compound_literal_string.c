/* adgen-test
head: weigh(weigh)/(x)
arg x: double = uniform(-1, 1)
expect-error: a compound literal of characters set from a string literal is not supported
expect-error-line: 18
*/
/* Must be refused: a compound literal array of characters set from a string literal
 * (other compound literals are supported: compound_literals.c). */
#include <string.h>

static double scaled(const char *tag, double x)
{
    return (double)strlen(tag) * x;
}

double weigh(double x)
{
    return scaled((char[]){"abc"}, x) * x;
}
