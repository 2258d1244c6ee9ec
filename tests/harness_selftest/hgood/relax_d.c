#include <math.h>
typedef struct { int n; double s; double *v; } Vec;
void relax_d(Vec *v, Vec *vd)
{
    int i;
    for (i = 0; i < v->n; i++) {
        vd->v[i] = vd->s * cos(v->v[i]) - v->s * sin(v->v[i]) * vd->v[i];
        v->v[i] = v->s * cos(v->v[i]);
    }
    vd->s = 0.5 * vd->s;
    v->s = 0.5 * v->s;
}
