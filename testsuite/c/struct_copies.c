/* adgen-test
head: track(cost)/(obs q)
arg n: int = 6
arg obs: double[n] = uniform(-1, 1)
arg q: double = 0.3
arg cost: double[1]
sizes: give
*/
/* Whole structs assigned and passed by value: a filter state holding a long history, a
 * 3x3 covariance and an array of sensor structs is copied to a candidate, updated by a
 * function that takes and returns the struct by value, and copied back when the candidate
 * is better. Copies run over every field: the long array and the nested ones in loops. */
#include <math.h>

#define NHIST 90
#define NSENS 4

struct sensor {
    double bias;
    double gain[3];
};

struct filter {
    double hist[NHIST];
    double cov[3][3];
    struct sensor sens[NSENS];
    int steps;
};

static struct filter predict(struct filter f, double q)
{
    int i, j;
    for (i = NHIST - 1; i > 0; i--)
        f.hist[i] = 0.8 * f.hist[i] + 0.2 * f.hist[i - 1];
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            f.cov[i][j] = f.cov[i][j] * (1.0 - q) + (i == j ? q : 0.0);
    for (i = 0; i < NSENS; i++) {
        f.sens[i].bias = f.sens[i].bias + q * tanh(f.hist[i]);
        f.sens[i].gain[i % 3] = f.sens[i].gain[i % 3] * f.cov[i % 3][i % 3];
    }
    f.steps = f.steps + 1;
    return f;
}

static double score(const struct filter *f)
{
    double s = 0.0;
    int i, j;
    for (i = 0; i < NHIST; i++)
        s = s + f->hist[i] * f->hist[i] / NHIST;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            s = s + f->cov[i][j] * f->cov[j][i];
    for (i = 0; i < NSENS; i++)
        s = s + f->sens[i].bias * f->sens[i].gain[0] + sin(f->sens[i].gain[2]);
    return s;
}

void track(int n, const double *obs, double q, double *cost)
{
    struct filter cur, cand;
    int i, j, it;
    for (i = 0; i < NHIST; i++)
        cur.hist[i] = obs[i % n] * cos(0.05 * i);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            cur.cov[i][j] = obs[(i + j) % n] * obs[j];
    for (i = 0; i < NSENS; i++) {
        cur.sens[i].bias = obs[i];
        for (j = 0; j < 3; j++)
            cur.sens[i].gain[j] = 1.0 + obs[(i + j) % n];
    }
    cur.steps = 0;
    for (it = 0; it < 4; it++) {
        cand = cur;
        cand = predict(cand, q / (it + 1));
        if (score(&cand) < score(&cur) + 0.3)
            cur = cand;
    }
    cost[0] = score(&cur);
}
