/* adgen-test
head: pack_residuals(r)/(theta)
arg n: int = 4
arg theta: double[2*n]
arg r: double[n+1]
*/
/* Pointer fields of structs that walk over active arrays: a reader cursor over the
 * parameters (`c->p++` in a helper) and a writer over the outputs (`w.out++`). The shadow
 * fields walk with them, and the backward sweep needs them where the forward sweep had
 * them: they are stepped back (or restored) like pointer variables. Both were left at the
 * end of the arrays, the backward sweep reading past them. */
#include <math.h>

typedef struct {
    const double *p;
    int taken;
} Cursor;

typedef struct {
    double *out;
    double scale;
} Writer;

static double take(Cursor *c)
{
    double v = *c->p;
    c->p++;
    c->taken++;
    return v;
}

static void put(Writer *w, double v)
{
    *w->out = w->scale * v;
    w->out = w->out + 1;
}

void pack_residuals(int n, const double *theta, double *r)
{
    Cursor c = {theta, 0};
    Writer w;
    double total = 0.0;
    int i;
    w.out = r;
    w.scale = 0.5;
    for (i = 0; i < n; i++) {
        double a = take(&c);
        double b = take(&c);
        total += a * b;
        put(&w, sin(a) * b + a * a);
    }
    *w.out = total * c.taken;
}
