/* Benchmark driver of the LSTM objective: the primal (lstm.c) and adgen's adjoint
 * (lstm_objective_b, generated).  No hand-written adjoint.
 *
 *   lstm_bench check L B C          adgen's gradient against central finite differences on
 *                                   a few components; loss and final state against the primal
 *   lstm_bench fdall L B C          finite differences on every component (small sizes)
 *   lstm_bench time L B C MIN REP   best-of-REP seconds per call, >= MIN s per timing
 *   lstm_bench mem L B C            peak heap bytes per call (build with -DBENCH_TRACK_ALLOC)
 * Each mode prints one JSON object on stdout.  Every call starts from the same initial state
 * (the state buffer is in/out and is copied back before each call, in every variant). */
#include "../common/bench.h"
#include "lstm.h"

void lstm_objective_b(int l, int c, int b, const double *main_params, double *main_paramsb,
                      const double *extra_params, double *extra_paramsb, double *state,
                      const double *sequence, double *loss, double *lossb);

typedef struct {
    int l, b, c;
    long n_main, n_extra, n_state;
    double *main_params, *extra_params, *state, *state0, *sequence;
    double loss, lossb;
    double *main_paramsb, *extra_paramsb;
} Lstm;

static void setup(Lstm *m, int l, int b, int c)
{
    m->l = l;
    m->b = b;
    m->c = c;
    m->n_main = 2L * l * 4 * b;
    m->n_extra = 3L * b;
    m->n_state = 2L * l * b;
    m->main_params = bench_alloc(m->n_main);
    m->extra_params = bench_alloc(m->n_extra);
    m->state = bench_alloc(m->n_state);
    m->state0 = bench_alloc(m->n_state);
    m->sequence = bench_alloc((long)c * b);
    m->main_paramsb = bench_alloc(m->n_main);
    m->extra_paramsb = bench_alloc(m->n_extra);
    bench_seed(20240612);
    bench_fill(m->main_params, m->n_main, -1.0, 1.0);
    bench_fill(m->extra_params, m->n_extra, -1.0, 1.0);
    bench_fill(m->state0, m->n_state, -0.5, 0.5);
    bench_fill(m->sequence, (long)c * b, 0.0, 1.0);
}

static void run_primal(void *ctx)
{
    Lstm *m = ctx;
    memcpy(m->state, m->state0, (size_t)m->n_state * sizeof(double));
    lstm_objective(m->l, m->c, m->b, m->main_params, m->extra_params, m->state, m->sequence,
                   &m->loss);
}

static void run_adgen(void *ctx)
{
    Lstm *m = ctx;
    memcpy(m->state, m->state0, (size_t)m->n_state * sizeof(double));
    m->lossb = 1.0;
    lstm_objective_b(m->l, m->c, m->b, m->main_params, m->main_paramsb, m->extra_params,
                     m->extra_paramsb, m->state, m->sequence, &m->loss, &m->lossb);
    bench_flush_deferred();
}

static long grad_len(const Lstm *m)
{
    return m->n_main + m->n_extra;
}

static double *input_elem(Lstm *m, long idx)
{
    return idx < m->n_main ? &m->main_params[idx] : &m->extra_params[idx - m->n_main];
}

static double primal_value(void *ctx)
{
    Lstm *m = ctx;
    run_primal(m);
    return m->loss;
}

static double central_fd(Lstm *m, long idx)
{
    return bench_fd(primal_value, m, input_elem(m, idx));
}

static int mode_check(Lstm *m, int all)
{
    long len = grad_len(m), i, nidx = 0, *idx;
    double *ga = bench_alloc(len), *state_primal = bench_alloc(m->n_state);
    double loss_primal, loss_adgen, lossb_after, ginf, worst = 0.0;

    run_primal(m);
    loss_primal = m->loss;
    memcpy(state_primal, m->state, (size_t)m->n_state * sizeof(double));
    for (i = 0; i < m->n_main; i++)
        m->main_paramsb[i] = 1e30;
    for (i = 0; i < m->n_extra; i++)
        m->extra_paramsb[i] = 1e30;
    m->loss = 1e30;
    run_adgen(m);
    loss_adgen = m->loss;
    lossb_after = m->lossb;
    memcpy(ga, m->main_paramsb, (size_t)m->n_main * sizeof(double));
    memcpy(ga + m->n_main, m->extra_paramsb, (size_t)m->n_extra * sizeof(double));
    ginf = bench_inf_norm(ga, len);

    printf("{");
    bench_json_num("loss_primal", loss_primal, 0);
    bench_json_num("loss_adgen", loss_adgen, 0);
    bench_json_num("lossb_adgen_after", lossb_after, 0);
    bench_json_num("state_adgen_vs_primal", bench_max_rel(m->state, state_primal, m->n_state), 0);
    bench_json_num("grad_inf_norm", ginf, 0);

    idx = malloc((size_t)(all ? len : 16) * sizeof(long));
    if (all) {
        for (i = 0; i < len; i++)
            idx[nidx++] = i;
    } else {
        long starts[2], lens[2];
        int a;
        starts[0] = 0;
        lens[0] = m->n_main;
        starts[1] = m->n_main;
        lens[1] = m->n_extra;
        for (a = 0; a < 2; a++) {
            long s = starts[a], n = lens[a], arg = s;
            for (i = s; i < s + n; i++)
                if (fabs(ga[i]) > fabs(ga[arg]))
                    arg = i;
            idx[nidx++] = s;
            idx[nidx++] = s + n / 2;
            idx[nidx++] = s + n - 1;
            idx[nidx++] = arg;
        }
    }
    printf("\"fd\": [");
    for (i = 0; i < nidx; i++) {
        double fd = central_fd(m, idx[i]);
        double e = bench_fd_rel(fd, ga[idx[i]], ginf);
        if (!(e <= worst))
            worst = e;
        if (!all || i < 8) {
            int main_ = idx[i] < m->n_main;
            bench_json_fd_open(i == 0, main_ ? "main_params" : "extra_params",
                               main_ ? idx[i] : idx[i] - m->n_main, fd);
            bench_json_num("adgen", ga[idx[i]], 1);
            printf("}");
        }
    }
    printf("], \"fd_count\": %ld, ", nidx);
    bench_json_num("fd_vs_adgen", worst, 1);
    printf("}\n");
    free(idx);
    free(ga);
    free(state_primal);
    return 0;
}

int main(int argc, char **argv)
{
    Lstm m;
    const char *mode;
    if (argc < 5) {
        fprintf(stderr, "usage: %s check|fdall|time|mem L B C [MIN_TIME REPEATS]\n", argv[0]);
        return 2;
    }
    mode = argv[1];
    setup(&m, atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    if (strcmp(mode, "check") == 0 || strcmp(mode, "fdall") == 0)
        return mode_check(&m, strcmp(mode, "fdall") == 0);
    if (strcmp(mode, "time") == 0) {
        bench_fn fns[2] = {run_primal, run_adgen};
        void *ctxs[2] = {&m, &m};
        const char *names[2] = {"primal", "adgen"};
        bench_time_json(2, fns, ctxs, names, argc > 5 ? atof(argv[5]) : 0.05,
                        argc > 6 ? atoi(argv[6]) : 5);
        return 0;
    }
    if (strcmp(mode, "mem") == 0) {
#ifdef BENCH_TRACK_ALLOC
        printf("{");
        bench_json_num("primal", bench_peak_heap(run_primal, &m), 0);
        bench_json_num("adgen", bench_peak_heap(run_adgen, &m), 1);
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
