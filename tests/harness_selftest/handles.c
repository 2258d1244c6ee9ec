/* adgen-test
head: energy(energy)/(g)
arg g: Grid* = handle
field g.n: int = 4
field g.h: double = uniform(0.5, 1)
field g.x: double[g.n] = uniform(-1, 1)
field g.flag: int[g.n] = {1, 0, 0, 1}
field g.mat: Mat*
field g.mat.k: double[g.n] = uniform(1, 2)
field g.mat.rho: double = 1.5
field g.c: Coef
field g.c.a: double
field g.c.b: double = uniform(1, 2)
field g.w[2]: double
head: scale(out)/(v)
arg v: Vec = handle
field v.n: int = 3
field v.s: double = uniform(0.5, 1)
field v.v: double[v.n]
arg out: Vec* = handle
field out.n: int = v.n
field out.s: double
field out.v: double[out.n]
head: relax(v)/(v)
arg v: Vec* = handle
field v.n: int = 3
field v.s: double = uniform(0.5, 1)
field v.v: double[v.n]
head: damp(v)/(v)
arg v: Vec = handle
field v.n: int = 4
field v.s: double = uniform(0.5, 1)
field v.v: double[v.n]
head: fill(out)/(t)
arg t: double = uniform(0.2, 0.8)
arg out: Vec = handle
field out.n: int = 3
field out.s: double
field out.v: double[out.n]
*/
/* Handles (structs holding pointers) with hand-written derivatives in hgood/, used by
   tests/test_harness.py to check that the harness passes correct derivative code for
   them and catches wrong code: a pure-input handle with a nested handle, an integer
   array, a struct field and an array inside the struct (energy); a pure input by value
   and a pure output by pointer (scale); an in/out handle by pointer (relax) and by value
   (damp: its fields by value are inputs only, the arrays it points to change); a pure
   output by value (fill: its field s, which fill cannot change, is no output, and fill_b
   leaves its derivative alone). */
#include <math.h>

typedef struct { double *k; double rho; } Mat;
typedef struct { double a, b; } Coef;
typedef struct { int n; double h; double *x; const int *flag; Mat *mat; Coef c; double w[2]; } Grid;
typedef struct { int n; double s; double *v; } Vec;

double energy(const Grid *g)
{
    double e = 0;
    int i;
    for (i = 0; i < g->n; i++)
        e += g->mat->k[i] * g->x[i] * g->x[i] * (g->flag[i] ? 2.0 : 1.0)
            + g->mat->rho * g->h * sin(g->x[i]);
    return e + g->c.a * g->c.b + g->w[0] * g->w[1];
}

void scale(Vec v, Vec *out)
{
    int i;
    for (i = 0; i < v.n; i++)
        out->v[i] = v.s * v.v[i] * v.v[i];
    out->s = v.s * v.s;
}

void relax(Vec *v)
{
    int i;
    for (i = 0; i < v->n; i++)
        v->v[i] = v->s * cos(v->v[i]);
    v->s = 0.5 * v->s;
}

void damp(Vec v)
{
    int i;
    for (i = 0; i < v.n; i++)
        v.v[i] = v.s * v.v[i];
    v.s = 0.0;      /* its own copy */
}

void fill(double t, Vec out)
{
    int i;
    for (i = 0; i < out.n; i++)
        out.v[i] = sin(t * (i + 1));
}
