#include <math.h>
typedef struct { int n; double s; double *v; } Vec;
void fill_d(double t, double td, Vec out, Vec outd)
{
    int i;
    for (i = 0; i < out.n; i++) {
        out.v[i] = sin(t * (i + 1));
        outd.v[i] = (i + 1) * cos(t * (i + 1)) * td;
    }
}
