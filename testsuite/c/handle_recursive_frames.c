/* adgen-test
head: total(total)/(v)
arg v: const Span* = handle
field v.n: int = 11
field v.data: double[v.n] = uniform(0.8, 1.2)
field v.w: double = 0.6
*/
/* Divide and conquer over a handle: each level copies the struct it is given into frames
 * of its own (malloc'd, freed on the way back), points their data fields into halves of
 * the data and recurses on them. Every pointer the recursion sets is in a block it
 * allocated itself: the head never changes the pointers of the caller's struct, though
 * the frames and the caller's struct are the same memory to the points-to analysis. */
#include <math.h>
#include <stdlib.h>

typedef struct { int n; double *data; double w; } Span;

static double reduce(const Span *s)
{
    Span *half;
    double a, b;
    if (s->n == 1)
        return sin(s->data[0]) + s->w * s->data[0] * s->data[0];
    half = malloc(2 * sizeof(Span));
    half[0] = *s;
    half[0].n = s->n / 2;
    half[1] = *s;
    half[1].n = s->n - s->n / 2;
    half[1].data = s->data + s->n / 2;
    half[1].w = 0.5 * s->w;
    a = reduce(&half[0]);
    b = reduce(&half[1]);
    free(half);
    return a * b / (a + b);
}

double total(const Span *v)
{
    return reduce(v);
}
