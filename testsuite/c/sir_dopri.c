/* adgen-test
head: sir_simulate(traj)/(theta y0)
arg theta: double[2] = {0.9, 0.25}
arg y0: double[3] = {0.97, 0.03, 0.0}
arg nsteps: int = 12
arg traj: double[3*nsteps]
*/
/* SIR epidemic model integrated with the Dormand-Prince 5(4) stages at a fixed step (the
 * embedded error estimate is computed, as an adaptive code would, but only recorded).
 * The Butcher tableau is a set of file-scope static const tables. */
#include <math.h>
#include <string.h>

#define NEQ 3
#define NSTAGE 7

static const double C[NSTAGE] = {0.0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0};
static const double A[NSTAGE][NSTAGE] = {
    {0, 0, 0, 0, 0, 0, 0},
    {1.0 / 5, 0, 0, 0, 0, 0, 0},
    {3.0 / 40, 9.0 / 40, 0, 0, 0, 0, 0},
    {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0, 0},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0, 0},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0, 0},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}};
static const double B5[NSTAGE] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192,
                                  -2187.0 / 6784, 11.0 / 84, 0};
static const double B4[NSTAGE] = {5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640,
                                  -92097.0 / 339200, 187.0 / 2100, 1.0 / 40};

static void sir_rhs(double t, const double *y, const double *theta, double *dy)
{
    const double beta = theta[0], gamma_ = theta[1];
    const double N = y[0] + y[1] + y[2];
    const double infection = beta * y[0] * y[1] / N;
    (void)t;
    dy[0] = -infection;
    dy[1] = infection - gamma_ * y[1];
    dy[2] = gamma_ * y[1];
}

void sir_simulate(const double *theta, const double *y0, int nsteps, double *traj)
{
    double y[NEQ], k[NSTAGE][NEQ], ytmp[NEQ];
    double t = 0.0, h = 0.5, errmax = 0.0;
    int step, s, j, e;

    memcpy(y, y0, sizeof y);
    for (step = 0; step < nsteps; step++) {
        for (s = 0; s < NSTAGE; s++) {
            for (e = 0; e < NEQ; e++) {
                ytmp[e] = y[e];
                for (j = 0; j < s; j++)
                    ytmp[e] += h * A[s][j] * k[j][e];
            }
            sir_rhs(t + C[s] * h, ytmp, theta, k[s]);
        }
        for (e = 0; e < NEQ; e++) {
            double y5 = y[e], y4 = y[e];
            for (s = 0; s < NSTAGE; s++) {
                y5 += h * B5[s] * k[s][e];
                y4 += h * B4[s] * k[s][e];
            }
            errmax = fmax(errmax, fabs(y5 - y4));
            y[e] = y5;
        }
        t += h;
        memcpy(traj + NEQ * step, y, NEQ * sizeof(double));
    }
    (void)errmax;
}
