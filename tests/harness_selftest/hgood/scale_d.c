typedef struct { int n; double s; double *v; } Vec;
void scale_d(Vec v, Vec vd, Vec *out, Vec *outd)
{
    int i;
    for (i = 0; i < v.n; i++) {
        out->v[i] = v.s * v.v[i] * v.v[i];
        outd->v[i] = vd.s * v.v[i] * v.v[i] + 2 * v.s * v.v[i] * vd.v[i];
    }
    out->s = v.s * v.s;
    outd->s = 2 * v.s * vd.s;
}
