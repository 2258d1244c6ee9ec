/* adgen-test
head: run(run)/(y0 k)
arg n: int = 6
arg y0: double = 0.8
arg k: double = 1.3
*/
/* Functions kept in pointers and called through them, each pointer set to one function
 * before the call: a struct field set by a set-up helper (a model and its right-hand
 * side), a `static` file-scope pointer the head sets, and a local pointer initialized with
 * a function. Each call is a call of that function, differentiated as such. */
#include <math.h>

typedef double (*rhs_fn)(double y, double k);

typedef struct {
    rhs_fn rhs;
    double h;
} Model;

static double decay(double y, double k) { return -k * y + 0.1 * sin(y); }
static double damping(double y, double k) { return 0.05 * k * y * y; }

static rhs_fn correction;

static void setup(Model *m, double h)
{
    m->rhs = &decay;
    m->h = h;
}

static double integrate(const Model *m, int n, double y, double k)
{
    int i;
    for (i = 0; i < n; i++)
        y = y + m->h * (m->rhs(y, k) - (*correction)(y, k));
    return y;
}

double run(int n, double y0, double k)
{
    Model m = {0, 0.0};
    double (*post)(double, double) = decay;
    correction = damping;
    setup(&m, 0.1);
    return integrate(&m, n, y0, k) + 0.5 * post(y0, k);
}
