typedef struct { int n; double s; double *v; } Vec;
void scale_b(Vec v, Vec *vb, Vec *out, Vec *outb)
{
    int i;
    vb->s = 0;
    for (i = 0; i < v.n; i++) {
        out->v[i] = v.s * v.v[i] * v.v[i];
        vb->s += v.v[i] * v.v[i] * outb->v[i];
        vb->v[i] = 2 * v.s * v.v[i] * outb->v[i];
        outb->v[i] = 0;
    }
    out->s = v.s * v.s;
    vb->s += 2 * v.s * outb->s;
    outb->s = 0;
}
