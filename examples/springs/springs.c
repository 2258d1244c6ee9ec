/* The energy of a network of springs in the plane: node i at (pos[2i], pos[2i+1]); spring
   e joins nodes ei[e] and ej[e], with rest length rest[e] and stiffness k[e]; every node
   has unit mass under gravity g. */
#include <math.h>

double energy(int nn, const double *pos, int ne, const int *ei, const int *ej,
              const double *rest, const double *k, double g)
{
#pragma adgen size(pos, 2 * nn)
    double e = 0.0;
    for (int s = 0; s < ne; s++) {
        double dx = pos[2 * ej[s]] - pos[2 * ei[s]];
        double dy = pos[2 * ej[s] + 1] - pos[2 * ei[s] + 1];
        double stretch = sqrt(dx * dx + dy * dy) - rest[s];
        e += 0.5 * k[s] * stretch * stretch;
    }
    for (int i = 0; i < nn; i++)
        e += g * pos[2 * i + 1];
    return e;
}
