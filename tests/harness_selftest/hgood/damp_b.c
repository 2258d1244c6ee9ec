typedef struct { int n; double s; double *v; } Vec;
void damp_b(Vec v, Vec *vb)
{
    int i;
    vb->s = 0;      /* an input only: v.s is the caller's copy, no output */
    for (i = 0; i < v.n; i++) {
        vb->s += v.v[i] * vb->v[i];
        vb->v[i] = v.s * vb->v[i];
        v.v[i] = v.s * v.v[i];
    }
}
