/* adgen-test
head: poisson_rb(phi)/(phi rhs)
arg n: int = 6
arg phi: double[n*n] = uniform(-0.1, 0.1)
arg rhs: double[n*n] = uniform(-1, 1)
arg sweeps: int = 3
sizes: give
*/
/* sizes: give because rhs is read only on the interior: its boundary entries are never
 * read, so adgen cannot infer that rhs has n*n elements (their adjoints must be zeroed). */
/* Red-black Gauss-Seidel with over-relaxation for the 2-D Poisson equation on an n x n
 * grid with a fixed zero boundary ring: in-place updates, colour selected by the parity
 * of i + j with `continue`, a row pointer helper, and a final residual-based correction
 * applied through a helper that modifies a slice of the array in place. */

static inline double *row_of(double *a, int n, int i) { return a + i * n; }

static void damp_interior(double *row, int n, double f)
{
    int j;
    for (j = 1; j < n - 1; j++)
        row[j] *= f;
}

void poisson_rb(int n, double *phi, const double *rhs, int sweeps)
{
    const double h2 = 1.0 / ((n - 1) * (n - 1));
    const double omega = 1.3;
    int s, colour, i, j;
    for (s = 0; s < sweeps; s++) {
        for (colour = 0; colour < 2; colour++) {
            for (i = 1; i < n - 1; i++) {
                double *r = row_of(phi, n, i);
                const double *up = phi + (i - 1) * n, *dn = phi + (i + 1) * n;
                for (j = 1; j < n - 1; j++) {
                    double gs;
                    if ((i + j) % 2 != colour)
                        continue;
                    gs = 0.25 * (up[j] + dn[j] + r[j - 1] + r[j + 1] - h2 * rhs[i * n + j]);
                    r[j] += omega * (gs - r[j]);
                }
            }
        }
    }
    for (i = 1; i < n - 1; i++)
        damp_interior(row_of(phi, n, i), n, 0.9 + 0.01 * i);
}
