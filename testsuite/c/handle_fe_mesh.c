/* adgen-test
head: fe_energy(fe_energy)/(m u)
head: fe_energy(fe_energy)/(u)
arg m: const Mesh* = handle
field m.nel: int = 5
field m.nnode: int = m.nel + 1
field m.x: double[m.nnode] = {0.0, 0.9, 2.1, 2.9, 4.2, 5.0}
field m.conn: int[2 * m.nel] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 5}
field m.fixed: int[m.nnode] = {1, 0, 0, 0, 0, 1}
field m.mat: Material*
field m.mat.k: double[m.nel] = uniform(1, 2)
field m.mat.law: Law
field m.mat.law.alpha: double = uniform(0.1, 0.3)
field m.mat.law.beta: double = uniform(0.5, 1)
field m.load: double = uniform(-1, 1)
arg u: double[m.nnode] = uniform(-0.5, 0.5)
head: fe_residual(r)/(m u)
arg m: const Mesh* = handle
field m.nel: int = 4
field m.nnode: int = m.nel + 1
field m.x: double[m.nnode] = {0.0, 1.2, 1.9, 3.1, 4.0}
field m.conn: int[2 * m.nel] = {0, 1, 1, 2, 2, 3, 3, 4}
field m.fixed: int[m.nnode] = {1, 0, 0, 0, 0}
field m.mat: Material*
field m.mat.k: double[m.nel] = uniform(1, 2)
field m.mat.law: Law
field m.mat.law.alpha: double = uniform(0.1, 0.3)
field m.mat.law.beta: double = uniform(0.5, 1)
field m.load: double = uniform(-1, 1)
arg u: double[m.nnode] = uniform(-0.5, 0.5)
arg r: double[m.nnode]
sizes: give
*/
/* A 1-D nonlinear finite-element model reached through a mesh handle, as FE codes pass
 * their mesh: node coordinates, integer connectivity and Dirichlet flags, a nested
 * material handle (per-element stiffness, a constitutive law held by value) and a load.
 * The stored energy, with respect to the mesh (its geometry, material and load) and the
 * displacements, or to the displacements alone; and the assembled residual (the
 * energy's gradient, the fixed nodes' rows replaced by their displacement), scattered
 * through the connectivity (so adgen is given the arrays' lengths: sizes: give, which
 * names the mesh's arrays as C does, --size m->mat->k=m->nel). */
#include <math.h>

typedef struct {
    double alpha;       /* quartic hardening */
    double beta;        /* the weight of the strain-rate-free volumetric term */
} Law;

typedef struct {
    double *k;          /* stiffness of each element */
    Law law;
} Material;

typedef struct {
    int nel, nnode;
    double *x;          /* node coordinates */
    const int *conn;    /* the two nodes of each element */
    const int *fixed;   /* Dirichlet nodes */
    Material *mat;
    double load;
} Mesh;

/* the strain energy density of strain s and its derivative */
static double density(const Law *law, double s)
{
    return 0.5 * s * s + law->alpha * s * s * s * s + law->beta * log(1.0 + s * s);
}

static double density_ds(const Law *law, double s)
{
    return s + 4.0 * law->alpha * s * s * s + 2.0 * law->beta * s / (1.0 + s * s);
}

/* half the length of the elements around node i (the load's quadrature weight): the
 * mesh read under conditions on i */
static double nodal_weight(const Mesh *m, int i)
{
    double w = 0.0;
    if (i > 0)
        w += 0.5 * (m->x[i] - m->x[i - 1]);
    if (i < m->nnode - 1)
        w += 0.5 * (m->x[i + 1] - m->x[i]);
    return w;
}

double fe_energy(const Mesh *m, const double *u)
{
    double e = 0.0;
    int el, i;
    for (el = 0; el < m->nel; el++) {
        int a = m->conn[2 * el], b = m->conn[2 * el + 1];
        double h = m->x[b] - m->x[a];
        double s = (u[b] - u[a]) / h;
        e += h * m->mat->k[el] * density(&m->mat->law, s);
    }
    for (i = 0; i < m->nnode; i++)
        if (!m->fixed[i])
            e -= m->load * nodal_weight(m, i) * sin(u[i]);
    return e;
}

void fe_residual(const Mesh *m, const double *u, double *r)
{
    int el, i;
    for (i = 0; i < m->nnode; i++)
        r[i] = -m->load * nodal_weight(m, i) * cos(u[i]);
    for (el = 0; el < m->nel; el++) {
        int a = m->conn[2 * el], b = m->conn[2 * el + 1];
        double h = m->x[b] - m->x[a];
        double f = m->mat->k[el] * density_ds(&m->mat->law, (u[b] - u[a]) / h);
        r[a] -= f;
        r[b] += f;
    }
    for (i = 0; i < m->nnode; i++)
        if (m->fixed[i])
            r[i] = u[i];
}
