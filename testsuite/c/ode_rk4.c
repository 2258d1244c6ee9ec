/* adgen-test
head: sir_integrate(y)/(y params h)
arg nsteps: int = 40
arg h: double = uniform(0.05, 0.1)
arg params: double[3] = {0.9, 0.25, 0.02}
arg y: double[3] = {0.95, 0.05, 0.0}
head: sir_peak(sir_peak)/(params)
arg nsteps: int = 60
arg params: double[3] = uniform(0.3, 0.9)
*/
/* Classic fourth-order Runge-Kutta for a 3-equation SIR epidemic model with waning
 * immunity (beta, gamma, xi in params).  The stage vectors are local fixed arrays;
 * sir_integrate updates y in place (in/out) with an active step size; sir_peak returns a
 * smooth maximum (log-sum-exp) of the infected fraction along the trajectory. */
#include <math.h>

#define NEQ 3

static void sir_rhs(const double *p, const double *y, double *dydt)
{
    double infection = p[0] * y[0] * y[1];
    dydt[0] = -infection + p[2] * y[2];
    dydt[1] = infection - p[1] * y[1];
    dydt[2] = p[1] * y[1] - p[2] * y[2];
}

static void rk4_step(double h, const double *p, double *y)
{
    double k1[NEQ], k2[NEQ], k3[NEQ], k4[NEQ], tmp[NEQ];
    int i;
    sir_rhs(p, y, k1);
    for (i = 0; i < NEQ; i++)
        tmp[i] = y[i] + 0.5 * h * k1[i];
    sir_rhs(p, tmp, k2);
    for (i = 0; i < NEQ; i++)
        tmp[i] = y[i] + 0.5 * h * k2[i];
    sir_rhs(p, tmp, k3);
    for (i = 0; i < NEQ; i++)
        tmp[i] = y[i] + h * k3[i];
    sir_rhs(p, tmp, k4);
    for (i = 0; i < NEQ; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

void sir_integrate(int nsteps, double h, const double *params, double *y)
{
    int t;
    for (t = 0; t < nsteps; t++)
        rk4_step(h, params, y);
}

double sir_peak(int nsteps, const double *params)
{
    double y[NEQ] = {0.99, 0.01, 0.0};
    double s = 0.0;
    int t;
    for (t = 0; t < nsteps; t++) {
        rk4_step(0.25, params, y);
        s += exp(20.0 * y[1]);
    }
    return log(s) / 20.0;
}
