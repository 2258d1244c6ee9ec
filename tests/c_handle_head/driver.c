/* Checks the derivative routines of model.c's heads whose independents and dependents are
 * handles (structs holding pointers) against each other (dot-product test) and against
 * central finite differences of the primal; prints PASS. The caller's derivative structs
 * are of the same types, their pointers leading to derivative arrays. */
#include <stdio.h>
#include <string.h>
#include "model.c"   /* the primal, and its types */

void energy_b(const Mesh *m, Mesh *mb, const double *u, double *ub, double energyb);
double energy_d(const Mesh *m, const Mesh *md, const double *u, const double *ud,
                double *energy);
void step_b(const Mesh *m, Mesh *mb, State *s, State *sb, double dt);
void step_d(const Mesh *m, const Mesh *md, State *s, State *sd, double dt);
void fluxes_b(const Mesh *m, Mesh *mb, const double *u, double *ub, State *out,
              State *outb);
void fluxes_d(const Mesh *m, const Mesh *md, const double *u, const double *ud, State *out,
              State *outd);
void weighted_b(Vec v, Vec *vb, double weightedb);
double weighted_d(Vec v, Vec vd, double *weighted);

#define N 6
#define MAXV 64
#define GARBAGE 1e30

/* Everything one evaluation touches: a primal, a tangent or an adjoint store. */
typedef struct {
    Material mat;
    Mesh m;
    State s;
    Vec v;
    double x[N + 1], k[N], u[N + 1], su[N + 1], flux[N], a[N];
    double result;
} Store;

static const int fixed[N + 1] = {1, 0, 0, 1, 0, 0, 1};

static void link(Store *st)
{
    st->mat.k = st->k;
    st->m.n = N;
    st->m.x = st->x;
    st->m.fixed = fixed;
    st->m.mat = &st->mat;
    st->s.n = N;
    st->s.u = st->su;
    st->s.flux = st->flux;
    st->v.n = N;
    st->v.a = st->a;
}

enum { ENERGY, STEP, FLUXES, WEIGHTED };

/* The scalars of a head's independents (which = 0) or dependents (which = 1). */
static int slots(Store *st, int head, int which, double **out)
{
    int c = 0, i;
    if (which == 0 && head != WEIGHTED) {          /* the mesh, and its material */
        for (i = 0; i <= N; i++) out[c++] = &st->x[i];
        for (i = 0; i < N; i++) out[c++] = &st->k[i];
        out[c++] = &st->mat.rho;
        out[c++] = &st->m.h;
    }
    if ((which == 0 && (head == ENERGY || head == FLUXES)))
        for (i = 0; i <= N; i++) out[c++] = &st->u[i];
    if (head == STEP || (head == FLUXES && which == 1)) {   /* the state */
        if (head == STEP)
            for (i = 0; i <= N; i++) out[c++] = &st->su[i];
        for (i = 0; i < N; i++) out[c++] = &st->flux[i];
        out[c++] = &st->s.total;
    }
    if (which == 0 && head == WEIGHTED) {
        out[c++] = &st->v.w;
        for (i = 0; i < N; i++) out[c++] = &st->a[i];
    }
    if (which == 1 && (head == ENERGY || head == WEIGHTED))
        out[c++] = &st->result;
    return c;
}

static void primal(Store *st, int head)
{
    switch (head) {
    case ENERGY: st->result = energy(&st->m, st->u); break;
    case STEP: step(&st->m, &st->s, 0.1); break;
    case FLUXES: fluxes(&st->m, st->u, &st->s); break;
    default: st->result = weighted(st->v);
    }
}

static void tangent(Store *st, Store *d, int head)
{
    switch (head) {
    case ENERGY: d->result = energy_d(&st->m, &d->m, st->u, d->u, &st->result); break;
    case STEP: step_d(&st->m, &d->m, &st->s, &d->s, 0.1); break;
    case FLUXES: fluxes_d(&st->m, &d->m, st->u, d->u, &st->s, &d->s); break;
    default: d->result = weighted_d(st->v, d->v, &st->result);
    }
}

static void adjoint(Store *st, Store *b, int head)
{
    switch (head) {
    case ENERGY: energy_b(&st->m, &b->m, st->u, b->u, b->result); break;
    case STEP: step_b(&st->m, &b->m, &st->s, &b->s, 0.1); break;
    case FLUXES: fluxes_b(&st->m, &b->m, st->u, b->u, &st->s, &b->s); break;
    default: weighted_b(st->v, &b->v, b->result);
    }
}

static void fill(Store *st, double seed)
{
    int i;
    memset(st, 0, sizeof *st);
    link(st);
    for (i = 0; i <= N; i++) {
        st->x[i] = i + 0.3 * sin(seed * (i + 1));
        st->u[i] = cos(seed * (i + 2));
        st->su[i] = sin(seed * (2 * i + 1));
    }
    for (i = 0; i < N; i++) {
        st->k[i] = 1.5 + 0.5 * sin(seed * (i + 3));
        st->a[i] = cos(seed * (i + 5));
        st->flux[i] = 0.1 * i;
    }
    st->mat.rho = 2.0 + sin(seed);
    st->m.h = 0.7 + 0.1 * cos(seed);
    st->s.total = 0.25;
    st->v.w = 1.3 + sin(seed);
    st->result = 1.0 + 0.5 * sin(seed);
}

static int check(int head, const char *name)
{
    static Store s0, st, v, w, d, b, plus, minus;
    double *p0[MAXV], *pv[MAXV], *pw[MAXV], *pd[MAXV], *pb[MAXV], *pp[MAXV], *pm[MAXV];
    double h = 1e-6, lhs = 0.0, rhs = 0.0, fd = 0.0;
    int nin, nout, i;
    fill(&s0, 0.3);
    fill(&v, 1.1);
    fill(&w, 2.3);
    nin = slots(&s0, head, 0, p0);
    nout = slots(&s0, head, 1, p0);
    /* tangent: the directions v on the inputs, garbage in the pure outputs' tangents */
    st = s0; link(&st);
    fill(&d, 0.0);
    slots(&d, head, 0, pd);
    slots(&v, head, 0, pv);
    slots(&d, head, 1, pd);
    for (i = 0; i < nout; i++) *pd[i] = GARBAGE;
    slots(&d, head, 0, pd);
    for (i = 0; i < nin; i++) *pd[i] = *pv[i];
    tangent(&st, &d, head);
    slots(&d, head, 1, pd);
    slots(&w, head, 1, pw);
    for (i = 0; i < nout; i++) lhs += *pw[i] * *pd[i];
    /* adjoint: garbage in the pure inputs' adjoints, the seeds w on the outputs */
    st = s0; link(&st);
    fill(&b, 0.0);
    slots(&b, head, 0, pb);
    for (i = 0; i < nin; i++) *pb[i] = GARBAGE;
    slots(&b, head, 1, pb);
    for (i = 0; i < nout; i++) *pb[i] = *pw[i];
    adjoint(&st, &b, head);
    slots(&b, head, 0, pb);
    for (i = 0; i < nin; i++) rhs += *pb[i] * *pv[i];
    /* central differences of the primal along v */
    plus = s0; link(&plus);
    minus = s0; link(&minus);
    slots(&plus, head, 0, pp);
    slots(&minus, head, 0, pm);
    for (i = 0; i < nin; i++) { *pp[i] += h * *pv[i]; *pm[i] -= h * *pv[i]; }
    primal(&plus, head);
    primal(&minus, head);
    slots(&plus, head, 1, pp);
    slots(&minus, head, 1, pm);
    for (i = 0; i < nout; i++) fd += *pw[i] * (*pp[i] - *pm[i]) / (2 * h);
    printf("%s: %.15g %.15g %.15g\n", name, lhs, rhs, fd);
    return lhs != 0.0 && fabs(lhs - rhs) <= 1e-12 * fabs(lhs) && fabs(fd - lhs) <= 1e-6 * fabs(lhs);
}

int main(void)
{
    int ok = check(ENERGY, "energy") & check(STEP, "step") & check(FLUXES, "fluxes") &
        check(WEIGHTED, "weighted");
    if (!ok)
        return 1;
    printf("PASS\n");
    return 0;
}
