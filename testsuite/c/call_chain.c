/* adgen-test
head: potential_energy(potential_energy)/(pos)
head: potential_energy(potential_energy)/(pos charge)
arg n: int = 5
arg pos: double[3*n] = uniform(-2, 2)
arg charge: double[n] = uniform(0.5, 1.5)
*/
/* Softened Coulomb energy of n charged particles plus an external central field.
 * Functions calling functions: potential_energy -> pair -> distance, and
 * potential_energy -> distance with one passive argument (a local constant point).
 * With the first head the charges are passive, with the second they are active, so the
 * by-value arguments qa, qb of pair() are active only in the second case. */
#include <math.h>

double distance(const double *a, const double *b)
{
    double dx = a[0] - b[0];
    double dy = a[1] - b[1];
    double dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz + 0.01);
}

double pair(const double *a, const double *b, double qa, double qb)
{
    return qa * qb / distance(a, b);
}

double potential_energy(int n, const double *pos, const double *charge)
{
    const double origin[3] = {0.0, 0.0, 0.0};
    double e = 0.0;
    int i, j;
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++)
            e += pair(&pos[3 * i], &pos[3 * j], charge[i], charge[j]);
        e -= 0.5 * charge[i] / distance(&pos[3 * i], origin);
    }
    return e;
}
