#include <math.h>
typedef struct { int n; double s; double *v; } Vec;
void fill_b(double t, double *tb, Vec out, Vec *outb)
{
    int i;
    *tb = 0;
    for (i = 0; i < out.n; i++) {
        out.v[i] = sin(t * (i + 1));
        *tb += (i + 1) * cos(t * (i + 1)) * outb->v[i];
        outb->v[i] = 0;
    }
    /* out.s is no output (fill has its own copy): outb->s is not touched */
}
