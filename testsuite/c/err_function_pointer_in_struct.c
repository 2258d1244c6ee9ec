/* adgen-test
head: run(run)/(y0)
arg n: int = 4
arg y0: double = 0.8
expect-error: function 'decay' used as a value (a function pointer): adgen follows the functions a call passes as arguments
expect-error-line: 29
*/
/* A function kept in a struct and called through it: adgen follows functions passed as
 * arguments (callbacks), not those kept in structs; the error says so where the function
 * is stored. */
typedef struct {
    double (*rhs)(double y);
    double h;
} Model;

static double decay(double y) { return -y; }

static double integrate(const Model *m, int n, double y)
{
    int i;
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
