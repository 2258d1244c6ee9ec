/* Benchmark driver of the GMM objective: the primal (gmm.c), adgen's adjoint
 * (gmm_objective_b, generated) and the hand-written adjoint (gmm_hand_b.c).
 *
 *   gmm_bench check D K N          gradients of adgen and hand compared with each other and
 *                                  with central finite differences on a few components
 *   gmm_bench fdall D K N          finite differences on every component (small sizes)
 *   gmm_bench time D K N MIN REP   best-of-REP seconds per call, >= MIN s per timing
 *   gmm_bench mem D K N            peak heap bytes per call (build with -DBENCH_TRACK_ALLOC)
 * Each mode prints one JSON object on stdout. */
#include "../common/bench.h"
#include "gmm.h"

void gmm_objective_b(int d, int k, int n, const double *alphas, double *alphasb,
                     const double *means, double *meansb, const double *icf, double *icfb,
                     const double *x, Wishart wishart, double *err, double *errb);
void gmm_objective_hand_b(int d, int k, int n, const double *alphas, double *alphasb,
                          const double *means, double *meansb, const double *icf,
                          double *icfb, const double *x, Wishart wishart, double *err,
                          double *errb);

typedef struct {
    int d, k, n;
    long icf_sz;
    double *alphas, *means, *icf, *x;
    Wishart wishart;
    double err, errb;
    double *alphasb, *meansb, *icfb;
} Gmm;

static void setup(Gmm *g, int d, int k, int n)
{
    g->d = d;
    g->k = k;
    g->n = n;
    g->icf_sz = (long)d * (d + 1) / 2;
    g->alphas = bench_alloc(k);
    g->means = bench_alloc((long)k * d);
    g->icf = bench_alloc(g->icf_sz * k);
    g->x = bench_alloc((long)n * d);
    g->alphasb = bench_alloc(k);
    g->meansb = bench_alloc((long)k * d);
    g->icfb = bench_alloc(g->icf_sz * k);
    g->wishart.gamma = 1.0;
    g->wishart.m = 2;
    bench_seed(20240611);
    bench_fill(g->alphas, k, -1.0, 1.0);
    bench_fill(g->means, (long)k * d, 0.0, 1.0);
    bench_fill(g->icf, g->icf_sz * k, -0.3, 0.3);
    bench_fill(g->x, (long)n * d, 0.0, 1.0);
}

static void run_primal(void *ctx)
{
    Gmm *g = ctx;
    gmm_objective(g->d, g->k, g->n, g->alphas, g->means, g->icf, g->x, g->wishart, &g->err);
}

static void run_adgen(void *ctx)
{
    Gmm *g = ctx;
    g->errb = 1.0;
    gmm_objective_b(g->d, g->k, g->n, g->alphas, g->alphasb, g->means, g->meansb, g->icf,
                    g->icfb, g->x, g->wishart, &g->err, &g->errb);
    bench_flush_deferred();
}

static void run_hand(void *ctx)
{
    Gmm *g = ctx;
    g->errb = 1.0;
    gmm_objective_hand_b(g->d, g->k, g->n, g->alphas, g->alphasb, g->means, g->meansb,
                         g->icf, g->icfb, g->x, g->wishart, &g->err, &g->errb);
}

static void garbage_adjoints(Gmm *g)
{
    long i;
    for (i = 0; i < g->k; i++)
        g->alphasb[i] = 1e30;
    for (i = 0; i < (long)g->k * g->d; i++)
        g->meansb[i] = 1e30;
    for (i = 0; i < g->icf_sz * g->k; i++)
        g->icfb[i] = 1e30;
}

/* the gradient as one vector: alphas, means, icf */
static long grad_len(const Gmm *g)
{
    return g->k + (long)g->k * g->d + g->icf_sz * g->k;
}

static void gather(const Gmm *g, double *out)
{
    memcpy(out, g->alphasb, (size_t)g->k * sizeof(double));
    memcpy(out + g->k, g->meansb, (size_t)g->k * g->d * sizeof(double));
    memcpy(out + g->k + (long)g->k * g->d, g->icfb, (size_t)(g->icf_sz * g->k) * sizeof(double));
}

static double *input_elem(Gmm *g, long idx)
{
    if (idx < g->k)
        return &g->alphas[idx];
    idx -= g->k;
    if (idx < (long)g->k * g->d)
        return &g->means[idx];
    return &g->icf[idx - (long)g->k * g->d];
}

static const char *input_name(const Gmm *g, long idx, long *local)
{
    if (idx < g->k) {
        *local = idx;
        return "alphas";
    }
    idx -= g->k;
    if (idx < (long)g->k * g->d) {
        *local = idx;
        return "means";
    }
    *local = idx - (long)g->k * g->d;
    return "icf";
}

static double primal_value(void *ctx)
{
    Gmm *g = ctx;
    run_primal(g);
    return g->err;
}

static double central_fd(Gmm *g, long idx)
{
    return bench_fd(primal_value, g, input_elem(g, idx));
}

static int mode_check(Gmm *g, int all)
{
    long len = grad_len(g), i, nidx = 0, *idx;
    double *ga = bench_alloc(len), *gh = bench_alloc(len);
    double err_primal, err_adgen, err_hand, errb_adgen, errb_hand, ginf;
    double worst_fd_adgen = 0.0, worst_fd_hand = 0.0;

    run_primal(g);
    err_primal = g->err;
    garbage_adjoints(g);
    g->err = 1e30;
    run_adgen(g);
    err_adgen = g->err;
    errb_adgen = g->errb;
    gather(g, ga);
    garbage_adjoints(g);
    g->err = 1e30;
    run_hand(g);
    err_hand = g->err;
    errb_hand = g->errb;
    gather(g, gh);
    ginf = bench_inf_norm(gh, len);

    idx = malloc((size_t)(all ? len : 16) * sizeof(long));
    if (all) {
        for (i = 0; i < len; i++)
            idx[nidx++] = i;
    } else {
        /* per input array: first, second-block start, middle, last and largest component */
        long starts[3], lens[3];
        int a;
        starts[0] = 0;
        lens[0] = g->k;
        starts[1] = g->k;
        lens[1] = (long)g->k * g->d;
        starts[2] = g->k + (long)g->k * g->d;
        lens[2] = g->icf_sz * g->k;
        for (a = 0; a < 3; a++) {
            long s = starts[a], m = lens[a], arg = s;
            for (i = s; i < s + m; i++)
                if (fabs(gh[i]) > fabs(gh[arg]))
                    arg = i;
            idx[nidx++] = s;
            idx[nidx++] = s + m / 2;
            idx[nidx++] = s + m - 1;
            idx[nidx++] = arg;
            if (a == 2 && g->d < m)
                idx[nidx++] = s + g->d;     /* first off-diagonal entry */
        }
    }

    printf("{");
    bench_json_num("err_primal", err_primal, 0);
    bench_json_num("err_adgen", err_adgen, 0);
    bench_json_num("err_hand", err_hand, 0);
    bench_json_num("errb_adgen_after", errb_adgen, 0);
    bench_json_num("errb_hand_after", errb_hand, 0);
    bench_json_num("grad_inf_norm", ginf, 0);
    bench_json_num("adgen_vs_hand", bench_max_rel(ga, gh, len), 0);
    printf("\"fd\": [");
    for (i = 0; i < nidx; i++) {
        long local;
        const char *name = input_name(g, idx[i], &local);
        double fd = central_fd(g, idx[i]);
        double ea = bench_fd_rel(fd, ga[idx[i]], bench_inf_norm(ga, len));
        double eh = bench_fd_rel(fd, gh[idx[i]], ginf);
        if (!(ea <= worst_fd_adgen))
            worst_fd_adgen = ea;
        if (!(eh <= worst_fd_hand))
            worst_fd_hand = eh;
        if (!all || i < 8) {
            bench_json_fd_open(i == 0, name, local, fd);
            bench_json_num("adgen", ga[idx[i]], 0);
            bench_json_num("hand", gh[idx[i]], 1);
            printf("}");
        }
    }
    printf("], ");
    printf("\"fd_count\": %ld, ", nidx);
    bench_json_num("fd_vs_adgen", worst_fd_adgen, 0);
    bench_json_num("fd_vs_hand", worst_fd_hand, 1);
    printf("}\n");
    free(idx);
    free(ga);
    free(gh);
    return 0;
}

int main(int argc, char **argv)
{
    Gmm g;
    const char *mode;
    if (argc < 5) {
        fprintf(stderr, "usage: %s check|fdall|time|mem D K N [MIN_TIME REPEATS]\n", argv[0]);
        return 2;
    }
    mode = argv[1];
    setup(&g, atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    if (strcmp(mode, "check") == 0 || strcmp(mode, "fdall") == 0)
        return mode_check(&g, strcmp(mode, "fdall") == 0);
    if (strcmp(mode, "time") == 0) {
        bench_fn fns[3] = {run_primal, run_adgen, run_hand};
        void *ctxs[3] = {&g, &g, &g};
        const char *names[3] = {"primal", "adgen", "hand"};
        bench_time_json(3, fns, ctxs, names, argc > 5 ? atof(argv[5]) : 0.05,
                        argc > 6 ? atoi(argv[6]) : 5);
        return 0;
    }
    if (strcmp(mode, "mem") == 0) {
#ifdef BENCH_TRACK_ALLOC
        printf("{");
        bench_json_num("primal", bench_peak_heap(run_primal, &g), 0);
        bench_json_num("adgen", bench_peak_heap(run_adgen, &g), 0);
        bench_json_num("hand", bench_peak_heap(run_hand, &g), 1);
        printf("}\n");
        return 0;
#else
        fprintf(stderr, "mem mode needs a build with -DBENCH_TRACK_ALLOC\n");
        return 2;
#endif
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
