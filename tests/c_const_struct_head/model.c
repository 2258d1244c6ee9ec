/* A parameter block whose struct type has const members and `T *const` fields, passed by
 * pointer as an independent (tests/test_struct_heads.py): the adjoint writes the gradient
 * into the derivative struct, of the same type, so the output's copy of the type has no
 * const members (the output did not compile). */
typedef struct {
    const int n;
    const double a;
    const double *const w;
    double *const work;
} Params;

double energy(const Params *p, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < p->n; i++) {
        p->work[i] = p->a * p->w[i] * x[i];
        s += p->work[i] * x[i] * p->a;
    }
    return s;
}
