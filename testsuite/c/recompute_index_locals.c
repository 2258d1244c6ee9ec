/* adgen-test
head: ring(e)/(u w)
arg n: int = 9
arg u: double[n] = uniform(-1, 1)
arg w: double[n] = uniform(0.5, 1.5)
arg e: double[1]
sizes: give
*/
/* Integer locals computed from the loop counter (the indices of a point's neighbours on a
 * ring) are set again at the start of each backward iteration rather than stored; one the
 * loop carries from iteration to iteration (k) is stored. */
void ring(int n, const double *u, const double *w, double *e)
{
    int i, left, right, k = 0;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        left = (i + n - 1) % n;
        right = (i + 1) % n;
        s = s + w[i] * u[left] * u[right] + u[i] * u[i] * u[right];
    }
    for (i = 0; i < n; i++) {
        k = (k + 4) % n;
        s = s + u[k] * w[i] * u[i];
    }
    e[0] = s;
}
