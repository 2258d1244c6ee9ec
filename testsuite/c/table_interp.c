/* adgen-test
head: material_response(stress)/(strain table)
arg n: int = 6
arg strain: double[n] = {0.013, 0.131, 0.257, 0.377, 0.512, 0.644}
arg nt: int = 9
arg table: double[nt] = uniform(0.5, 2.0)
arg stress: double[n+1]
sizes: give
*/
/* sizes: give because stress is summed by walking a pointer over it, whose range adgen
 * does not analyse. */
/* Tabulated material law: the tangent modulus is read from a uniform table by linear
 * interpolation (the cell index comes from the active strain through (int)floor), then
 * integrated over the strain with the trapezoidal rule.  The sum over the output walks a
 * pointer; the table lookup clamps the index; a switch picks the
 * hardening law by cell parity. */
#include <math.h>

static double lookup(const double *tab, int nt, double x, double xmax)
{
    const double u = x / xmax * (nt - 1);
    int k = (int)floor(u);
    double w;
    if (k < 0)
        k = 0;
    else if (k > nt - 2)
        k = nt - 2;
    w = u - k;
    return (1.0 - w) * tab[k] + w * tab[k + 1];
}

void material_response(int n, const double *strain, int nt, const double *table, double *stress)
{
    const double emax = 1.0;
    const int nsub = 4;
    double total = 0.0;
    const double *p, *end;
    int i, j;
    for (i = 0; i < n; i++) {
        double s = 0.0, h = strain[i] / nsub;
        for (j = 0; j < nsub; j++) {
            double e0 = j * h, e1 = (j + 1) * h;
            s += 0.5 * h * (lookup(table, nt, e0, emax) + lookup(table, nt, e1, emax));
        }
        switch (i % 3) {
        case 0:
            stress[i] = s;
            break;
        case 1:
            stress[i] = s * (1.0 + 0.1 * strain[i]);
            break;
        default:
            stress[i] = s / (1.0 + strain[i] * strain[i]);
            break;
        }
    }
    p = stress;
    end = stress + n;
    while (p < end)
        total += *p++;
    stress[n] = total;
}
