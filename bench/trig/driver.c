/* Benchmark driver of the trigonometric residual: the primal (trig.c), adgen's vector
 * tangent (trig_residual_dv, generated) in n directions, the unit vectors, which gives the
 * whole Jacobian, and the hand-written Jacobian (trig_hand_jacobian.c).
 *
 *   trig_bench check N          Jacobians of adgen and hand compared with each other and
 *                               with central finite differences on a few columns
 *   trig_bench fdall N          finite differences on every column (small sizes)
 *   trig_bench time N MIN REP   best-of-REP seconds per call, >= MIN s per timing
 * Each mode prints one JSON object on stdout. */
#include "../common/bench.h"
#include "trig.h"

void trig_residual_dv(int n, const double *x, const double *xd, double *f, double *fd,
                      int nbdirs);

typedef struct {
    int n;
    double *x, *f, *seed, *jac_adgen, *jac_hand, *f_adgen, *f_hand;
} Trig;

static void setup(Trig *t, int n)
{
    long i;
    t->n = n;
    t->x = bench_alloc(n);
    t->f = bench_alloc(n);
    t->f_adgen = bench_alloc(n);
    t->f_hand = bench_alloc(n);
    t->seed = bench_alloc((long)n * n);
    t->jac_adgen = bench_alloc((long)n * n);
    t->jac_hand = bench_alloc((long)n * n);
    bench_seed(20261206);
    bench_fill(t->x, n, -1.0, 1.0);
    /* direction k is the unit vector e_k: xd[j * n + k] = [j == k] */
    memset(t->seed, 0, (size_t)n * n * sizeof(double));
    for (i = 0; i < n; i++)
        t->seed[i * n + i] = 1.0;
}

static void run_primal(void *ctx)
{
    Trig *t = ctx;
    trig_residual(t->n, t->x, t->f);
}

/* fd[i * n + k], the tangent of f_i in direction e_k, is d f_i / d x_k: row-major. */
static void run_adgen(void *ctx)
{
    Trig *t = ctx;
    trig_residual_dv(t->n, t->x, t->seed, t->f_adgen, t->jac_adgen, t->n);
}

static void run_hand(void *ctx)
{
    Trig *t = ctx;
    trig_hand_jacobian(t->n, t->x, t->f_hand, t->jac_hand);
}

/* f_i for the finite differences */
typedef struct {
    Trig *t;
    long i;
} Component;

static double residual_component(void *ctx)
{
    Component *c = ctx;
    trig_residual(c->t->n, c->t->x, c->t->f);
    return c->t->f[c->i];
}

/* Worst finite-difference error over the columns listed (all when cols is NULL), of the
 * Jacobian jac, each column against its own infinity norm. */
static double fd_error(Trig *t, const double *jac, const long *cols, int ncols)
{
    long n = t->n, i, c;
    double worst = 0.0;
    Component comp;
    comp.t = t;
    for (c = 0; c < (cols ? ncols : n); c++) {
        long j = cols ? cols[c] : c;
        double colinf = 0.0;
        for (i = 0; i < n; i++)
            if (fabs(jac[i * n + j]) > colinf)
                colinf = fabs(jac[i * n + j]);
        for (i = 0; i < n; i++) {
            double fd, e;
            comp.i = i;
            fd = bench_fd(residual_component, &comp, &t->x[j]);
            e = bench_fd_rel(fd, jac[i * n + j], colinf);
            if (e != e)
                return NAN;
            if (e > worst)
                worst = e;
        }
    }
    return worst;
}

static void check(Trig *t, int all)
{
    long n = t->n, cols[3];
    int ncols = 3;
    double value_adgen, value_hand;
    cols[0] = 0;
    cols[1] = n / 2;
    cols[2] = n - 1;
    run_primal(t);
    run_adgen(t);
    run_hand(t);
    value_adgen = bench_max_rel(t->f_adgen, t->f, n);
    value_hand = bench_max_rel(t->f_hand, t->f, n);
    printf("{");
    bench_json_num("value_adgen_vs_primal", value_adgen, 0);
    bench_json_num("value_hand_vs_primal", value_hand, 0);
    bench_json_num("adgen_vs_hand", bench_max_rel(t->jac_adgen, t->jac_hand, n * n), 0);
    printf("\"fd_count\": %ld, ", (all ? n : ncols) * n);
    bench_json_num("fd_vs_adgen", fd_error(t, t->jac_adgen, all ? NULL : cols, ncols), 0);
    bench_json_num("fd_vs_hand", fd_error(t, t->jac_hand, all ? NULL : cols, ncols), 1);
    printf("}\n");
}

int main(int argc, char **argv)
{
    Trig t;
    if (argc < 3) {
        fprintf(stderr, "usage: %s check|fdall|time N [MIN REPEATS]\n", argv[0]);
        return 2;
    }
    setup(&t, atoi(argv[2]));
    if (strcmp(argv[1], "check") == 0 || strcmp(argv[1], "fdall") == 0) {
        check(&t, strcmp(argv[1], "fdall") == 0);
    } else if (strcmp(argv[1], "time") == 0 && argc >= 5) {
        bench_fn fns[3] = {run_primal, run_adgen, run_hand};
        void *ctxs[3] = {&t, &t, &t};
        const char *const names[3] = {"primal", "adgen", "hand"};
        bench_time_json(3, fns, ctxs, names, atof(argv[3]), atoi(argv[4]));
    } else {
        fprintf(stderr, "unknown mode %s\n", argv[1]);
        return 2;
    }
    return 0;
}
