/* Benchmark driver of a parallel loop whose adjoint stores values: the time stepper of
 * testsuite/c/openmp_stored_values.c (each step a parallel loop overwriting its own
 * elements and a private scalar twice), its primal and adgen's adjoint
 * (openmp_stored_values_b, generated), whose forward and backward loops both run in
 * parallel, the stored values in slots of each iteration's (docs/openmp.md).
 *
 *   stepper check N STEPS          the gradient's checksum (compared across thread counts)
 *   stepper time N STEPS MIN REP   best-of-REP seconds per call, >= MIN s per timing
 * Each mode prints one JSON object on stdout. */
#include "../common/bench.h"

void openmp_stored_values(int n, int steps, double *u, double c, double *energy);
void openmp_stored_values_b(int n, int steps, double *u, double *ub, double c, double *cb,
                            double *energy, double *energyb);

typedef struct {
    int n, steps;
    double *u0, *u, *ub;
    double c, cb, energy, energyb;
} Stepper;

static void primal(void *ctx)
{
    Stepper *s = ctx;
    memcpy(s->u, s->u0, (size_t)s->n * sizeof(double));
    openmp_stored_values(s->n, s->steps, s->u, s->c, &s->energy);
}

static void gradient(void *ctx)
{
    Stepper *s = ctx;
    memcpy(s->u, s->u0, (size_t)s->n * sizeof(double));
    memset(s->ub, 0, (size_t)s->n * sizeof(double));
    s->cb = 0.0;
    s->energyb = 1.0;
    openmp_stored_values_b(s->n, s->steps, s->u, s->ub, s->c, &s->cb, &s->energy,
                           &s->energyb);
}

int main(int argc, char **argv)
{
    Stepper s;
    if (argc < 4) {
        fprintf(stderr, "usage: stepper check|time N STEPS [MIN REP]\n");
        return 2;
    }
    s.n = atoi(argv[2]);
    s.steps = atoi(argv[3]);
    s.u0 = bench_alloc(s.n);
    s.u = bench_alloc(s.n);
    s.ub = bench_alloc(s.n);
    s.c = 0.8;
    bench_seed(7);
    bench_fill(s.u0, s.n, -1.0, 1.0);
    if (strcmp(argv[1], "check") == 0) {
        double sum = 0.0;
        long i;
        gradient(&s);
        for (i = 0; i < s.n; i++)
            sum += s.ub[i] * (1.0 + 1e-3 * (double)(i % 97));
        printf("{");
        bench_json_num("ub_weighted_sum", sum, 0);
        bench_json_num("cb", s.cb, 0);
        bench_json_num("energy", s.energy, 1);
        printf("}\n");
        return 0;
    }
    if (strcmp(argv[1], "time") == 0 && argc >= 6) {
        bench_fn fns[2] = {primal, gradient};
        void *ctxs[2] = {&s, &s};
        const char *const names[2] = {"primal", "adgen"};
        bench_time_json(2, fns, ctxs, names, atof(argv[4]), atoi(argv[5]));
        return 0;
    }
    fprintf(stderr, "stepper: unknown mode\n");
    return 2;
}
