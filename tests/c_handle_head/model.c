/* A model reached through handles, as simulation codes pass their data: structs holding
 * pointers to the arrays (a mesh with a nested material, a state, a view by value), and
 * integer data beside them. */
#include <math.h>
#include <stddef.h>

typedef struct {
    double *k;          /* conductivity of each cell */
    double rho;
} Material;

typedef struct {
    int n;              /* cells */
    double h;
    double *x;          /* node coordinates, n + 1 */
    const int *fixed;   /* nodes held fixed (integer data) */
    Material *mat;
} Mesh;

typedef struct {
    int n;
    double *u;          /* node values, n + 1 */
    double *flux;       /* cell fluxes, n */
    double total;
} State;

typedef struct {
    int n;
    double w;
    double *a;
} Vec;

static double cell_flux(const Mesh *m, const double *u, int i)
{
    return m->mat->k[i] * (u[i + 1] - u[i]) / (m->x[i + 1] - m->x[i]);
}

/* energy(energy)/(m u): a pure input handle, its nested handle and fields of numbers */
double energy(const Mesh *m, const double *u)
{
    double e = 0.0;
    for (int i = 0; i < m->n; i++) {
        double dx = m->x[i + 1] - m->x[i];
        double du = u[i + 1] - u[i];
        e += 0.5 * m->mat->k[i] * du * du / dx + m->mat->rho * dx * m->h;
    }
    return e;
}

/* step(s)/(m s): a state updated in place (its fluxes overwritten, their old values not
 * read), through a helper taking the handle */
void step(const Mesh *m, State *s, double dt)
{
    int i;
    for (i = 0; i < m->n; i++)
        s->flux[i] = cell_flux(m, s->u, i);
    for (i = 1; i < m->n; i++)
        if (!m->fixed[i])
            s->u[i] += dt * (s->flux[i] - s->flux[i - 1]) / m->mat->rho;
    s->total = 0.0;
    for (i = 0; i <= m->n; i++)
        s->total += s->u[i] * m->h;
}

/* fluxes(out)/(m u): a pure output handle; its total accumulates onto the value it had,
 * which is read */
void fluxes(const Mesh *m, const double *u, State *out)
{
    for (int i = 0; i < m->n; i++) {
        out->flux[i] = cell_flux(m, u, i);
        out->total = out->total + out->flux[i] * out->flux[i];
    }
}

/* weighted(weighted)/(v): a handle passed by value */
double weighted(Vec v)
{
    double s = 0.0;
    for (int i = 0; i < v.n; i++)
        s += v.w * v.a[i] * v.a[i] + sin(v.a[i]);
    return s;
}
