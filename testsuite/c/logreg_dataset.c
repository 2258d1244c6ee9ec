/* adgen-test
head: logreg_objective(logreg_objective)/(w)
arg n: size_t = 8
arg d: size_t = 3
arg X: double[n*d] = uniform(-1.5, 1.5)
arg y: double[n] = {1, 0, 0, 1, 1, 0, 1, 0}
arg w: double[d+1] = uniform(-0.5, 0.5)
arg lambda: double = 0.1
*/
/* L2-regularized logistic regression, the loss written in its numerically stable form.
 * The data set travels in a struct holding its sizes and pointers; a row accessor returns
 * a pointer into the design matrix; counters are size_t.  w[d] is the intercept, not
 * penalized. */
#include <math.h>
#include <stddef.h>

typedef struct {
    size_t n, d;
    const double *X;    /* n x d, row-major */
    const double *y;    /* labels in {0, 1} */
} Dataset;

static const double *row(const Dataset *ds, size_t i)
{
    return ds->X + i * ds->d;
}

/* log(1 + exp(z)) without overflow */
static double softplus(double z)
{
    return z > 0.0 ? z + log1p(exp(-z)) : log1p(exp(z));
}

static double margin(const Dataset *ds, const double *w, size_t i)
{
    const double *xi = row(ds, i);
    double z = w[ds->d];
    size_t j;
    for (j = 0; j < ds->d; ++j)
        z += w[j] * xi[j];
    return z;
}

double logreg_objective(size_t n, size_t d, const double *X, const double *y,
                        const double *w, double lambda)
{
    Dataset ds;
    double loss = 0.0, pen = 0.0;
    size_t i, j;
    ds.n = n;
    ds.d = d;
    ds.X = X;
    ds.y = y;
    for (i = 0; i < ds.n; ++i) {
        const double z = margin(&ds, w, i);
        loss += softplus(z) - ds.y[i] * z;
    }
    for (j = 0; j < d; ++j)
        pen += w[j] * w[j];
    return loss / (double)n + 0.5 * lambda * pen;
}
