/* adgen-test
head: kalman_track(state cov nll)/(state cov meas noise)
arg nmeas: int = 4
arg state: double[4] = uniform(-0.5, 0.5)
arg cov: double[16] = {1.0, 0.1, 0.0, 0.0,  0.1, 1.2, 0.0, 0.0,  0.0, 0.0, 0.5, 0.05,  0.0, 0.0, 0.05, 0.6}
arg meas: double[2*nmeas] = uniform(-1, 1)
arg noise: double[2] = uniform(0.05, 0.2)
arg nll: double[1]
*/
/* Constant-velocity Kalman filter in 2-D: state (x, y, vx, vy), position measurements.
 * Small fixed matrices live in local 2-D arrays; the 2x2 innovation covariance is
 * inverted in closed form.  Returns the updated state and covariance (row-major 4x4) and
 * the negative log-likelihood of the measurements. */
#include <math.h>

#define NS 4
#define NM 2

static void mat_mul(const double A[NS][NS], const double B[NS][NS], double C[NS][NS])
{
    int i, j, k;
    for (i = 0; i < NS; i++)
        for (j = 0; j < NS; j++) {
            double s = 0.0;
            for (k = 0; k < NS; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

static void transpose(const double A[NS][NS], double At[NS][NS])
{
    int i, j;
    for (i = 0; i < NS; i++)
        for (j = 0; j < NS; j++)
            At[j][i] = A[i][j];
}

void kalman_track(int nmeas, double *state, double *cov, const double *meas,
                  const double *noise, double *nll)
{
    const double dt = 0.1, q = 0.01;
    double F[NS][NS] = {{1, 0, dt, 0}, {0, 1, 0, dt}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double Ft[NS][NS], P[NS][NS], FP[NS][NS];
    double x[NS];
    double total = 0.0;
    int i, j, t;

    transpose(F, Ft);
    for (i = 0; i < NS; i++) {
        x[i] = state[i];
        for (j = 0; j < NS; j++)
            P[i][j] = cov[i * NS + j];
    }

    for (t = 0; t < nmeas; t++) {
        double xp[NS], S[NM][NM], Sinv[NM][NM], K[NS][NM], innov[NM], det;
        /* predict */
        for (i = 0; i < NS; i++) {
            xp[i] = 0.0;
            for (j = 0; j < NS; j++)
                xp[i] += F[i][j] * x[j];
        }
        mat_mul(F, P, FP);
        mat_mul(FP, Ft, P);
        for (i = 0; i < NS; i++)
            P[i][i] += q;
        /* update: H selects the first two components */
        for (i = 0; i < NM; i++) {
            innov[i] = meas[NM * t + i] - xp[i];
            for (j = 0; j < NM; j++)
                S[i][j] = P[i][j] + (i == j ? noise[i] * noise[i] : 0.0);
        }
        det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
        Sinv[0][0] = S[1][1] / det;
        Sinv[1][1] = S[0][0] / det;
        Sinv[0][1] = -S[0][1] / det;
        Sinv[1][0] = -S[1][0] / det;
        for (i = 0; i < NS; i++)
            for (j = 0; j < NM; j++)
                K[i][j] = P[i][0] * Sinv[0][j] + P[i][1] * Sinv[1][j];
        for (i = 0; i < NS; i++)
            x[i] = xp[i] + K[i][0] * innov[0] + K[i][1] * innov[1];
        {
            double Pn[NS][NS];
            for (i = 0; i < NS; i++)
                for (j = 0; j < NS; j++)
                    Pn[i][j] = P[i][j] - K[i][0] * P[0][j] - K[i][1] * P[1][j];
            for (i = 0; i < NS; i++)
                for (j = 0; j < NS; j++)
                    P[i][j] = Pn[i][j];
        }
        total += 0.5 * (log(det) + innov[0] * (Sinv[0][0] * innov[0] + Sinv[0][1] * innov[1])
                        + innov[1] * (Sinv[1][0] * innov[0] + Sinv[1][1] * innov[1]));
    }

    for (i = 0; i < NS; i++) {
        state[i] = x[i];
        for (j = 0; j < NS; j++)
            cov[i * NS + j] = P[i][j];
    }
    *nll = total;
}
