/* adgen-test
head: energy(e)/(x)
arg x: double[NPTS] = uniform(0.5, 1.5)
arg e: double[1]
head: smooth(y)/(x)
arg x: double[NPTS] = uniform(0.5, 1.5)
arg y: double[NPTS]
head: scaled(y)/(x)
arg x: double[NSCALE] = uniform(0.5, 1.5)
arg y: double[NSCALE]
*/
/* Loop bounds kept in a global that is not const: a field of a global struct (`g.n`) and
 * a plain global int (`nscale`), set by the program before the head is called (here by
 * their initializers; grid_init would set them too). The head, and what it calls, never
 * changes them, and nothing takes their address: each is one value for the whole call,
 * and the lengths are that value at the head's entry, g.n and nscale. adgen gave none
 * ("an index of 'x' has no known bound"). smooth changes another field of g (g.h), which
 * leaves g.n as it is, and reaches y through a callee whose loop g.n bounds too. */
#define NPTS 6
#define NSCALE 4

struct grid { int n; double h; } g = {NPTS, 0.25};
int nscale = NSCALE;

void grid_init(int n, int m)
{
    g.n = n;
    g.h = 1.0 / n;
    nscale = m;
}

void energy(const double *x, double *e)
{
    int i;
    *e = 0.0;
    for (i = 0; i < g.n; i++)
        *e += x[i] * x[i] * g.h;
}

static void add_neighbours(const double *x, double *y)
{
    for (int i = 1; i < g.n - 1; i++)
        y[i] += g.h * (x[i - 1] + x[i + 1]);
}

void smooth(const double *x, double *y)
{
    g.h = 0.5;
    for (int i = 0; i < g.n; i++)
        y[i] += x[i] * x[i];
    add_neighbours(x, y);
}

void scaled(const double *x, double *y)
{
    for (int i = nscale - 1; i >= 0; i--)
        y[i] *= x[i];
}
