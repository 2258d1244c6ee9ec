/* adgen-test
head: smooth_and_score(out)/(signal weights)
arg n: int = 12
arg signal: double[n] = uniform(-1, 1)
arg weights: double[3] = uniform(0.2, 0.5)
arg out: double[2]
*/
/* Fortran-flavoured C: a file-scope work array (with a length limit) filled by one routine
 * and consumed by others, a COMMON-block-like struct of global state, and an output
 * written through the head's pointer at the end. */
#include <math.h>

#define MAXN 64

static double work[MAXN];
static struct {
    int n;
    double norm;
} common_blk;

static void load(const double *signal, int n)
{
    int i;
    common_blk.n = n;
    common_blk.norm = 0.0;
    for (i = 0; i < n; i++) {
        work[i] = signal[i];
        common_blk.norm += signal[i] * signal[i];
    }
    common_blk.norm = sqrt(common_blk.norm);
}

static void filter3(const double *w)
{
    double prev = work[0], cur;
    int i;
    for (i = 1; i < common_blk.n - 1; i++) {
        cur = work[i];
        work[i] = w[0] * prev + w[1] * cur + w[2] * work[i + 1];
        prev = cur;
    }
}

static double energy(void)
{
    double e = 0.0;
    int i;
    for (i = 0; i < common_blk.n; i++)
        e += work[i] * work[i];
    return e / (common_blk.norm * common_blk.norm);
}

void smooth_and_score(int n, const double *signal, const double *weights, double *out)
{
    load(signal, n);
    filter3(weights);
    out[0] = energy();
    filter3(weights);
    out[1] = energy() + work[n / 2];
}
