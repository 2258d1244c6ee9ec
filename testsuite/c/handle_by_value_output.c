/* adgen-test
head: blend(o)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg o: Out = handle
field o.w: double = uniform(0.5, 1.5)
field o.y: double[n]
field o.sub: Aux*
field o.sub.g: double = uniform(0.5, 1.5)
head: blend(o)/(x o)
*/
/* A handle passed by value as an output: its pointer field leads to the output array, its
 * own field w is a copy the routine reads and overwrites (no output: the caller never
 * sees it change); the nested struct's field g is the caller's, read and written. */
#include <math.h>

typedef struct { double g; } Aux;

typedef struct {
    double w;
    double *y;
    Aux *sub;
} Out;

void blend(int n, const double *x, Out o)
{
    int i;
    o.w = o.w * x[0] + sin(x[1]);
    for (i = 0; i < n; i++)
        o.y[i] = o.w * x[i] + o.sub->g * cos(x[i]);
    o.sub->g = o.w * o.sub->g;
}
