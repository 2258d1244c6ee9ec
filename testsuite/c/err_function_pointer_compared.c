/* adgen-test
head: run(run)/(y0)
arg n: int = 4
arg y0: double = 0.8
expect-error: call through the function pointer 'm->rhs', which 'integrate' also uses as a value
expect-error-line: 24
*/
/* Must be refused: a function kept in a struct and called through it, but also compared
 * (a default when none is set): calls through a pointer are resolved only where the
 * pointer is just set and called. */
typedef struct {
    double (*rhs)(double y);
    double h;
} Model;

static double decay(double y) { return -y; }

static double integrate(const Model *m, int n, double y)
{
    int i;
    if (m->rhs == 0)
        return y;
    for (i = 0; i < n; i++)
        y = y + m->h * m->rhs(y);
    return y;
}

double run(int n, double y0)
{
    Model m;
    m.rhs = decay;
    m.h = 0.1;
    return integrate(&m, n, y0);
}
