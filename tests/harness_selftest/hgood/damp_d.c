typedef struct { int n; double s; double *v; } Vec;
void damp_d(Vec v, Vec vd)
{
    int i;
    for (i = 0; i < v.n; i++) {
        vd.v[i] = vd.s * v.v[i] + v.s * vd.v[i];
        v.v[i] = v.s * v.v[i];
    }
}
