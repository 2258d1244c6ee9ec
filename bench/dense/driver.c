/* Benchmark driver of the dense in-place kernels (dense.c) and adgen's adjoint
 * dense_objective_b; modes in common/gradient_driver.h, size N. */
#include "../common/gradient_driver.h"
#include "dense.h"

void dense_objective_b(int n, const double *a, double *ab, const double *c, double *cb,
                       double *out, double *outb);

typedef struct {
    int n;
    double *a, *c, *ab, *cb;
    double out, outb;
} Dense;

static void run_primal(void *ctx)
{
    Dense *p = ctx;
    dense_objective(p->n, p->a, p->c, &p->out);
}

static void run_adgen(void *ctx)
{
    Dense *p = ctx;
    p->outb = 1.0;
    dense_objective_b(p->n, p->a, p->ab, p->c, p->cb, &p->out, &p->outb);
    bench_flush_deferred();
}

static void setup(BenchModel *bm, const int *sizes)
{
    static Dense p;
    long nn = (long)sizes[0] * sizes[0];
    p.n = sizes[0];
    p.a = bench_alloc(nn);
    p.c = bench_alloc(nn);
    p.ab = bench_alloc(nn);
    p.cb = bench_alloc(nn);
    bench_seed(20240617);
    bench_fill(p.a, nn, -1.0, 1.0);
    bench_fill(p.c, nn, -1.0, 1.0);
    bm->n_inputs = 2;
    bm->inputs[0] = (BenchInput){"a", p.a, p.ab, nn};
    bm->inputs[1] = (BenchInput){"c", p.c, p.cb, nn};
    bm->ctx = &p;
    bm->primal = run_primal;
    bm->adjoint = run_adgen;
    bm->value = &p.out;
    bm->seed = &p.outb;
}

int main(int argc, char **argv)
{
    return bench_main(argc, argv, 1, "N", setup);
}
