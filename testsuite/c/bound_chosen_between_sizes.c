/* adgen-test
head: fluxes(flux)/(u)
arg n: int = 6
arg periodic: int = 0
arg u: double[n]
arg flux: double[n - 1 + periodic]
head: fluxes(flux)/(u)
arg n: int = 5
arg periodic: int = 1
arg u: double[n]
arg flux: double[n - 1 + periodic]
*/
/* A loop bound chosen between sizes: the number of faces of a 1-D grid, n with periodic
 * ends and n - 1 without, set in the two branches of an if, and again as a conditional
 * expression. flux is added to (its values are read), so its tangent must start at zero
 * and its length be known: it was refused ("an index of 'flux' has no known bound"). */
void fluxes(int n, int periodic, const double *u, double *flux)
{
    int nf, i;
    if (periodic)
        nf = n;
    else
        nf = n - 1;
    for (i = 0; i < nf; i++)
        flux[i] += 0.5 * (u[i] + u[(i + 1) % n]) * u[i];
    nf = periodic ? n : n - 1;
    for (i = 0; i < nf; i++)
        flux[i] *= 1.0 + 0.1 * u[(i + 1) % n];
}
