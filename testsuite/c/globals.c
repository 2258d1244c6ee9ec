/* adgen-test
head: boltzmann_mix(out)/(energy)
arg n: int = 5
arg energy: double[n] = uniform(-1, 1)
arg out: double[2]
*/
/* Global variables: a global const table of degeneracies, a global scalar parameter (a
 * temperature, read-only here) and a global constant array used by a callee. */
#include <math.h>

static const double degeneracy[5] = {1.0, 3.0, 5.0, 7.0, 9.0};
double temperature = 0.7;
const double level_shift[5] = {0.0, 0.1, 0.2, 0.3, 0.4};

static double boltzmann(double e, int k)
{
    return degeneracy[k] * exp(-(e + level_shift[k]) / temperature);
}

void boltzmann_mix(int n, const double *energy, double *out)
{
    double z = 0.0, mean = 0.0;
    int k;
    for (k = 0; k < n; k++) {
        double w = boltzmann(energy[k], k);
        z += w;
        mean += w * energy[k];
    }
    out[0] = -temperature * log(z);     /* free energy */
    out[1] = mean / z;                   /* mean energy */
}
