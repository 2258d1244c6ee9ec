/* The modes of a benchmark driver for a model with one scalar output, written once: the
 * driver (ba/driver.c, burgers/driver.c, dense/driver.c) describes its model in a
 * BenchModel and calls bench_main.
 *
 *   PROG check SIZES...          adgen's gradient against finite differences on the first,
 *                                middle, last and largest component of each input
 *   PROG fdall SIZES...          finite differences on every component (small sizes)
 *   PROG ref SIZES...            adgen's gradient against the reference adjoint (when the
 *                                driver links one, e.g. the uncheckpointed adjoint)
 *   PROG time SIZES... MIN REP   best-of-REP seconds per call, >= MIN s per timing
 *   PROG mem SIZES...            peak heap bytes per call (build with -DBENCH_TRACK_ALLOC)
 * Each mode prints one JSON object on stdout, with the keys run.py reads. */
#ifndef BENCH_GRADIENT_DRIVER_H
#define BENCH_GRADIENT_DRIVER_H

#include "bench.h"

#define BENCH_MAX_INPUTS 4
#define BENCH_MAX_SIZES 4

/* An independent: its values and its adjoint. */
typedef struct {
    const char *name;
    double *x, *xb;
    long len;
} BenchInput;

typedef struct {
    int n_inputs;
    BenchInput inputs[BENCH_MAX_INPUTS];
    void *ctx;
    bench_fn primal;      /* writes *value */
    bench_fn adjoint;     /* adgen's adjoint with seed *seed = 1: writes *value and the xb */
    bench_fn reference;   /* another adjoint with the same contract, or NULL */
    double *value, *seed;
} BenchModel;

static long bench_grad_len(const BenchModel *bm)
{
    long len = 0;
    int a;
    for (a = 0; a < bm->n_inputs; a++)
        len += bm->inputs[a].len;
    return len;
}

/* Input component idx, counting through the inputs in order. */
static double *bench_component(BenchModel *bm, long idx, int *which, long *offset)
{
    int a;
    for (a = 0; a < bm->n_inputs; a++) {
        if (idx < bm->inputs[a].len)
            break;
        idx -= bm->inputs[a].len;
    }
    *which = a;
    *offset = idx;
    return &bm->inputs[a].x[idx];
}

/* Runs an adjoint from poisoned outputs (every xb and the value 1e30, so that an adjoint
 * leaving one unset shows), and gathers the gradient into g. */
static void bench_gradient(BenchModel *bm, bench_fn adjoint, double *g)
{
    long pos = 0, i;
    int a;
    for (a = 0; a < bm->n_inputs; a++)
        for (i = 0; i < bm->inputs[a].len; i++)
            bm->inputs[a].xb[i] = 1e30;
    *bm->value = 1e30;
    adjoint(bm->ctx);
    for (a = 0; a < bm->n_inputs; a++) {
        memcpy(g + pos, bm->inputs[a].xb, (size_t)bm->inputs[a].len * sizeof(double));
        pos += bm->inputs[a].len;
    }
}

static double bench_primal_value(void *model)
{
    BenchModel *bm = model;
    bm->primal(bm->ctx);
    return *bm->value;
}

static int bench_mode_check(BenchModel *bm, int all)
{
    long len = bench_grad_len(bm), i, nidx = 0, start = 0, *idx;
    double *g = bench_alloc(len), value_primal, ginf, worst = 0.0;
    int a;

    value_primal = bench_primal_value(bm);
    bench_gradient(bm, bm->adjoint, g);
    ginf = bench_inf_norm(g, len);
    printf("{");
    bench_json_num("value_primal", value_primal, 0);
    bench_json_num("value_adgen", *bm->value, 0);
    bench_json_num("seed_after", *bm->seed, 0);
    bench_json_num("grad_inf_norm", ginf, 0);

    idx = malloc((size_t)(all ? len : 4 * bm->n_inputs) * sizeof(long));
    for (a = 0; a < bm->n_inputs; a++) {
        long n = bm->inputs[a].len, largest = start;
        if (all) {
            for (i = start; i < start + n; i++)
                idx[nidx++] = i;
        } else {
            for (i = start; i < start + n; i++)
                if (fabs(g[i]) > fabs(g[largest]))
                    largest = i;
            idx[nidx++] = start;
            idx[nidx++] = start + n / 2;
            idx[nidx++] = start + n - 1;
            idx[nidx++] = largest;
        }
        start += n;
    }
    printf("\"fd\": [");
    for (i = 0; i < nidx; i++) {
        int which;
        long offset;
        double *xi = bench_component(bm, idx[i], &which, &offset);
        double fd = bench_fd(bench_primal_value, bm, xi);
        double e = bench_fd_rel(fd, g[idx[i]], ginf);
        if (!(e <= worst))
            worst = e;
        if (!all || i < 8) {
            bench_json_fd_open(i == 0, bm->inputs[which].name, offset, fd);
            bench_json_num("adgen", g[idx[i]], 1);
            printf("}");
        }
    }
    printf("], \"fd_count\": %ld, ", nidx);
    bench_json_num("fd_vs_adgen", worst, 1);
    printf("}\n");
    free(idx);
    free(g);
    return 0;
}

static int bench_mode_reference(BenchModel *bm)
{
    long len = bench_grad_len(bm);
    double *g = bench_alloc(len), *g_ref = bench_alloc(len), value_adgen;
    if (bm->reference == NULL) {
        fprintf(stderr, "this driver has no reference adjoint\n");
        return 2;
    }
    bench_gradient(bm, bm->adjoint, g);
    value_adgen = *bm->value;
    bench_gradient(bm, bm->reference, g_ref);
    printf("{");
    bench_json_num("value_adgen", value_adgen, 0);
    bench_json_num("value_reference", *bm->value, 0);
    printf("\"count\": %ld, ", len);
    bench_json_num("adgen_vs_reference", bench_max_rel(g, g_ref, len), 1);
    printf("}\n");
    free(g);
    free(g_ref);
    return 0;
}

static int bench_mode_time(BenchModel *bm, double min_time, int repeats)
{
    bench_fn fns[2];
    void *ctxs[2];
    const char *names[2] = {"primal", "adgen"};
    fns[0] = bm->primal;
    fns[1] = bm->adjoint;
    ctxs[0] = ctxs[1] = bm->ctx;
    bench_time_json(2, fns, ctxs, names, min_time, repeats);
    return 0;
}

static int bench_mode_mem(BenchModel *bm)
{
#ifdef BENCH_TRACK_ALLOC
    printf("{");
    bench_json_num("primal", bench_peak_heap(bm->primal, bm->ctx), 0);
    if (bm->reference != NULL)
        bench_json_num("reference", bench_peak_heap(bm->reference, bm->ctx), 0);
    bench_json_num("adgen", bench_peak_heap(bm->adjoint, bm->ctx), 1);
    printf("}\n");
    return 0;
#else
    (void)bm;
    fprintf(stderr, "mem mode needs a build with -DBENCH_TRACK_ALLOC\n");
    return 2;
#endif
}

/* Parses MODE SIZES... [MIN REP], lets setup fill bm for the sizes, runs the mode. */
static int bench_main(int argc, char **argv, int n_sizes, const char *size_names,
                      void (*setup)(BenchModel *bm, const int *sizes))
{
    BenchModel bm;
    int sizes[BENCH_MAX_SIZES], s;
    const char *mode;
    if (argc < 2 + n_sizes) {
        fprintf(stderr, "usage: %s check|fdall|ref|time|mem %s [MIN_TIME REPEATS]\n", argv[0],
                size_names);
        return 2;
    }
    mode = argv[1];
    for (s = 0; s < n_sizes; s++)
        sizes[s] = atoi(argv[2 + s]);
    memset(&bm, 0, sizeof(bm));
    setup(&bm, sizes);
    if (strcmp(mode, "check") == 0 || strcmp(mode, "fdall") == 0)
        return bench_mode_check(&bm, strcmp(mode, "fdall") == 0);
    if (strcmp(mode, "ref") == 0)
        return bench_mode_reference(&bm);
    if (strcmp(mode, "time") == 0)
        return bench_mode_time(&bm, argc > 2 + n_sizes ? atof(argv[2 + n_sizes]) : 0.05,
                               argc > 3 + n_sizes ? atoi(argv[3 + n_sizes]) : 5);
    if (strcmp(mode, "mem") == 0)
        return bench_mode_mem(&bm);
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}

#endif
