/* adgen-test
head: fem_residual(res)/(u coords kappa)
arg nnodes: int = 6
arg ntri: int = 4
arg tri: int[3*ntri] = {0, 1, 3,  1, 4, 3,  1, 2, 4,  2, 5, 4}
arg coords: double[2*nnodes] = {0.0, 0.0,  1.0, 0.05,  2.0, 0.0,  0.05, 1.0,  1.0, 1.1,  2.05, 0.95}
arg u: double[nnodes] = uniform(-1, 1)
arg kappa: double[ntri] = uniform(0.5, 2)
arg res: double[nnodes]
sizes: give
*/
/* P1 finite elements on a small triangle mesh: element stiffness matrices from the
 * vertex coordinates (gradients of the barycentric functions, signed area), a nonlinear
 * conductivity k_e (1 + u_mean^2), and scatter-add assembly of the residual into the
 * global vector through the int connectivity array (nodes shared by several elements). */
#include <math.h>

static void p1_gradients(const double *coords, const int *v, double grad[3][2], double *area)
{
    const double x0 = coords[2 * v[0]], y0 = coords[2 * v[0] + 1];
    const double x1 = coords[2 * v[1]], y1 = coords[2 * v[1] + 1];
    const double x2 = coords[2 * v[2]], y2 = coords[2 * v[2] + 1];
    const double det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    grad[0][0] = (y1 - y2) / det;
    grad[0][1] = (x2 - x1) / det;
    grad[1][0] = (y2 - y0) / det;
    grad[1][1] = (x0 - x2) / det;
    grad[2][0] = (y0 - y1) / det;
    grad[2][1] = (x1 - x0) / det;
    *area = 0.5 * fabs(det);
}

void fem_residual(int nnodes, int ntri, const int *tri, const double *coords, const double *u,
                  const double *kappa, double *res)
{
    int e, a, b;
    for (a = 0; a < nnodes; a++)
        res[a] = 0.0;
    for (e = 0; e < ntri; e++) {
        const int *v = tri + 3 * e;
        double grad[3][2], area, umean, keff;
        p1_gradients(coords, v, grad, &area);
        umean = (u[v[0]] + u[v[1]] + u[v[2]]) / 3.0;
        keff = kappa[e] * (1.0 + umean * umean);
        for (a = 0; a < 3; a++) {
            double r = 0.0;
            for (b = 0; b < 3; b++)
                r += (grad[a][0] * grad[b][0] + grad[a][1] * grad[b][1]) * u[v[b]];
            res[v[a]] += keff * area * r;
        }
    }
}
