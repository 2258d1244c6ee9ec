/* adgen-test
head: model(out)/(p y0)
arg n: int = 20
arg p: double[4] = uniform(0.5, 1.5)
arg y0: double[2] = uniform(0.2, 0.8)
arg out: double[2]
*/
/* Functions passed as arguments: a Runge-Kutta integrator takes the right-hand side it
 * steps as a function pointer (through a typedef and spelled out, called as f(...) and
 * (*f)(...)), passes it on to its step, and is called with two functions (written for
 * this project). Each call that passes a function gets a copy of the integrator calling it
 * directly; a library function can be passed too. */
#include <math.h>

typedef double (*rhs_fn)(double t, double y, const double *p);

static double decay(double t, double y, const double *p)
{
    return -p[0] * y + p[1] * sin(t);
}

static double logistic(double t, double y, const double *p)
{
    (void)t;
    return p[2] * y * (1.0 - y / p[3]);
}

/* one classical Runge-Kutta step of y' = f(t, y) */
static double rk4_step(rhs_fn f, double t, double y, double h, const double *p)
{
    double k1 = f(t, y, p);
    double k2 = f(t + 0.5 * h, y + 0.5 * h * k1, p);
    double k3 = (*f)(t + 0.5 * h, y + 0.5 * h * k2, p);
    double k4 = f(t + h, y + h * k3, p);
    return y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

static double integrate(double (*f)(double, double, const double *), double y0, int n,
                        double h, const double *p)
{
    double y = y0, t = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        y = rk4_step(f, t, y, h, p);
        t += h;
    }
    return y;
}

/* a library function passed, by name and by address */
static double weighted(double (*g)(double), double x)
{
    return g(x) * x;
}

void model(int n, const double *p, const double *y0, double *out)
{
    out[0] = integrate(decay, y0[0], n, 0.05, p) + weighted(sin, p[0]) +
             weighted(&exp, 0.5 * y0[0]);
    out[1] = integrate(&logistic, y0[1], n, 0.05, p) + integrate(decay, y0[1], n, 0.1, p);
}
