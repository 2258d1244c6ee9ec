/* adgen-test
head: rk_local(x)/(x)
arg steps: int = 4
arg h: double = 0.1
arg x: double[3] = {0.3, -0.7, 0.4}
head: rk_table(x)/(x)
arg steps: int = 5
arg h: double = 0.15
arg x: double[3] = {0.6, 0.2, -0.5}
head: activation(activation)/(w x)
arg n: int = 3
arg kind: int = 1
arg w: double[n] = {0.5, 0.2, -0.4}
arg x: double[n] = {0.3, -0.7, 1.1}
head: activation(activation)/(w x)
arg n: int = 3
arg kind: int = 2
arg w: double[n] = {0.5, 0.2, -0.4}
arg x: double[n] = {0.3, -0.7, 1.1}
head: integrate(integrate)/(a)
arg a: double[2] = {0.8, 0.3}
head: integrate(integrate)/(a)
arg a: double[2] = {0.8, -0.3}
*/
/* Function pointers that may hold one of several functions: a Runge-Kutta-style driver's
 * local array of right-hand sides called in a loop as `(*f[j])(t, x)`, the same from a
 * `static const` table at file scope, and a local pointer chosen by a test among a library
 * function and two of the program's (one stored in a branch), or by the data (an
 * integrand). Each holds the number of its function instead, and the calls through it go
 * through a function choosing by that number: such pointers were refused ("an element of
 * an array of function pointers", "may point to 'linear', 'quadratic'"). */
#include <math.h>
#include <stddef.h>

typedef double (*rhs_t)(double t, const double *x);

static double rhs0(double t, const double *x) { return -x[0] * x[1] + sin(t); }
static double rhs1(double t, const double *x) { (void)t; return x[0] - 0.5 * x[1] * x[2]; }
static double rhs2(double t, const double *x) { return cos(x[0]) * x[2] - 0.1 * t; }

static const rhs_t table[3] = {rhs0, &rhs1, rhs2};

void rk_local(int steps, double h, double *x)
{
    rhs_t f[3] = {rhs1, rhs0, NULL};
    double k[3];
    f[2] = rhs2;
    for (int s = 0; s < steps; s++) {
        for (int j = 0; j < 3; j++)
            k[j] = (*f[j])(s * h, x);
        for (int j = 0; j < 3; j++)
            x[j] += h * k[j] * k[(j + 1) % 3];
    }
}

void rk_table(int steps, double h, double *x)
{
    double k[3];
    for (int s = 0; s < steps; s++) {
        for (int j = 0; j < 3; j++)
            k[j] = h * table[j](s * h, x);
        for (int j = 0; j < 3; j++)
            x[j] = x[j] + k[j];
    }
}

static double softplus(double v) { return log(1.0 + exp(v)); }
static double swish(double v) { return v / (1.0 + exp(-v)); }

double activation(int n, int kind, const double *w, const double *x)
{
    double (*act)(double) = kind == 0 ? tanh : softplus;
    double s = 0.0;
    if (kind == 2)
        act = swish;
    for (int i = 0; i < n; i++)
        s += act(w[i] * x[i]) * act(s + 0.5);
    return s;
}

typedef double (*integrand_fn)(const double *a, double t);

static double quadratic(const double *a, double t) { return a[0] * t * t + a[1]; }
static double linear(const double *a, double t) { return a[0] * t + a[1] * a[1]; }

double integrate(const double *a)
{
    integrand_fn f = a[1] > 0.0 ? quadratic : linear;
    double s = 0.0;
    for (int i = 0; i < 10; i++)
        s += 0.1 * f(a, 0.1 * i + 0.05);
    return s;
}
