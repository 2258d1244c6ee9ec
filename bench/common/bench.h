/* Shared helpers of the benchmark drivers: monotonic clock, timing loop, random numbers,
 * error measures, JSON output, and the hooks of model_hooks.h: heap accounting
 * (BENCH_TRACK_ALLOC) and deferred free (BENCH_DEFER_FREE). */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#define _XOPEN_SOURCE 700
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- random numbers (splitmix64), reproducible across machines ---- */
static unsigned long long bench_rng_state = 0x9E3779B97F4A7C15ULL;

static void bench_seed(unsigned long long s)
{
    bench_rng_state = s;
}

static double bench_uniform(double lo, double hi)
{
    unsigned long long z = (bench_rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

static void bench_fill(double *a, long n, double lo, double hi)
{
    long i;
    for (i = 0; i < n; i++)
        a[i] = bench_uniform(lo, hi);
}

static double *bench_alloc(long n)
{
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(3);
    }
    return p;
}

/* ---- error measures ---- */
static double bench_inf_norm(const double *a, long n)
{
    double m = 0.0;
    long i;
    for (i = 0; i < n; i++) {
        if (a[i] != a[i])
            return NAN;
        if (fabs(a[i]) > m)
            m = fabs(a[i]);
    }
    return m;
}

/* Componentwise relative difference of a against the reference r: components of r smaller
 * than 1e-6 * |r|_inf are measured against that floor instead. NaN anywhere gives NaN. */
static double bench_max_rel(const double *a, const double *r, long n)
{
    double floor_ = 1e-6 * bench_inf_norm(r, n), worst = 0.0;
    long i;
    if (floor_ == 0.0)
        floor_ = 1e-300;
    for (i = 0; i < n; i++) {
        double den = fabs(r[i]) > floor_ ? fabs(r[i]) : floor_;
        double e = fabs(a[i] - r[i]) / den;
        if (e != e || a[i] != a[i] || r[i] != r[i])
            return NAN;
        if (e > worst)
            worst = e;
    }
    return worst;
}

/* JSON numbers: NaN and infinities are written as strings. */
static void bench_json_num(const char *key, double v, int last)
{
    if (v != v)
        printf("\"%s\": \"nan\"%s", key, last ? "" : ", ");
    else if (isinf(v))
        printf("\"%s\": \"%s\"%s", key, v > 0 ? "inf" : "-inf", last ? "" : ", ");
    else
        printf("\"%s\": %.17g%s", key, v, last ? "" : ", ");
}

/* ---- timing ----
 * bench_time runs each variant once to calibrate an inner repetition count giving at least
 * min_time seconds, then `repeats` rounds; in each round every variant is timed once
 * (interleaved, so slow drift of the machine affects all alike).  best[v] is the minimum over
 * rounds of (round time / inner repetitions); user[v] and sys[v] are the mean CPU seconds per
 * call over all rounds (getrusage), which tell page-fault bound calls apart. */
typedef void (*bench_fn)(void *ctx);

static double bench_cpu(int sys)
{
    struct rusage ru;
    struct timeval tv;
    getrusage(RUSAGE_SELF, &ru);
    tv = sys ? ru.ru_stime : ru.ru_utime;
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

static void bench_time(int nv, bench_fn *fns, void **ctxs, double min_time, int repeats,
                       double *best, long *inner, double *user, double *sys)
{
    int v, r;
    for (v = 0; v < nv; v++) {
        double t0 = bench_now(), t;
        fns[v](ctxs[v]);                       /* warm-up and calibration */
        t = bench_now() - t0;
        if (t <= 0.0)
            t = 1e-9;
        inner[v] = (long)ceil(min_time / t);
        if (inner[v] < 1)
            inner[v] = 1;
        best[v] = INFINITY;
        user[v] = sys[v] = 0.0;
    }
    for (r = 0; r < repeats; r++) {
        for (v = 0; v < nv; v++) {
            long i;
            double u0 = bench_cpu(0), s0 = bench_cpu(1);
            double t0 = bench_now(), t;
            for (i = 0; i < inner[v]; i++)
                fns[v](ctxs[v]);
            t = (bench_now() - t0) / (double)inner[v];
            user[v] += (bench_cpu(0) - u0) / (double)(inner[v] * repeats);
            sys[v] += (bench_cpu(1) - s0) / (double)(inner[v] * repeats);
            if (t < best[v])
                best[v] = t;
        }
    }
}

/* Times nv variants with bench_time and prints one JSON object: per variant NAME (best
 * seconds per call), NAME_user and NAME_sys (mean CPU seconds per call). */
#define BENCH_MAX_VARIANTS 4
static void bench_time_json(int nv, bench_fn *fns, void **ctxs, const char *const *names,
                            double min_time, int repeats)
{
    double best[BENCH_MAX_VARIANTS], user[BENCH_MAX_VARIANTS], sys[BENCH_MAX_VARIANTS];
    long inner[BENCH_MAX_VARIANTS];
    char key[64];
    int v;
    bench_time(nv, fns, ctxs, min_time, repeats, best, inner, user, sys);
    printf("{");
    for (v = 0; v < nv; v++) {
        bench_json_num(names[v], best[v], 0);
        snprintf(key, sizeof key, "%s_user", names[v]);
        bench_json_num(key, user[v], 0);
        snprintf(key, sizeof key, "%s_sys", names[v]);
        bench_json_num(key, sys[v], 0);
    }
    printf("\"inner\": [");
    for (v = 0; v < nv; v++)
        printf("%s%ld", v ? ", " : "", inner[v]);
    printf("], \"repeats\": %d}\n", repeats);
}

/* Opens the JSON object of one finite-difference comparison (the caller adds the gradient
 * values and closes it with bench_json_num(..., 1) and "}"). */
static void bench_json_fd_open(int first, const char *array, long index, double fd)
{
    printf("%s{\"array\": \"%s\", \"index\": %ld, ", first ? "" : ", ", array, index);
    bench_json_num("fd", fd, 0);
}

/* Derivative of f at *p by the fourth-order central difference
 * (8 (f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h, h = 1e-3 max(1, |x|): truncation error
 * O(h^4) and roundoff eps |f| / h both stay far below the checks' tolerance. */
static double bench_fd(double (*f)(void *ctx), void *ctx, double *p)
{
    double x0 = *p, h = 1e-3 * (fabs(x0) > 1.0 ? fabs(x0) : 1.0);
    double f1, f_1, f2, f_2;
    *p = x0 + h;
    f1 = f(ctx);
    *p = x0 - h;
    f_1 = f(ctx);
    *p = x0 + 2.0 * h;
    f2 = f(ctx);
    *p = x0 - 2.0 * h;
    f_2 = f(ctx);
    *p = x0;
    return (8.0 * (f1 - f_1) - (f2 - f_2)) / (12.0 * h);
}

/* Relative error of a finite difference against a gradient component g_i: measured against
 * max(|g_i|, 1e-3 |g|_inf), since the FD error is absolute (roundoff / h). */
static double bench_fd_rel(double fd, double gi, double ginf)
{
    double den = fabs(gi) > 1e-3 * ginf ? fabs(gi) : 1e-3 * ginf;
    if (den == 0.0)
        den = 1e-300;
    return fabs(fd - gi) / den;
}

/* ---- heap accounting (drivers built with -DBENCH_TRACK_ALLOC) ---- */
#ifdef BENCH_TRACK_ALLOC
#include <malloc.h>
static size_t bench_heap_cur = 0, bench_heap_peak = 0;

static void bench_heap_add(void *p)
{
    if (p != NULL) {
        bench_heap_cur += malloc_usable_size(p);
        if (bench_heap_cur > bench_heap_peak)
            bench_heap_peak = bench_heap_cur;
    }
}

void *bench_malloc(size_t n)
{
    void *p = malloc(n);
    bench_heap_add(p);
    return p;
}

void *bench_calloc(size_t a, size_t b)
{
    void *p = calloc(a, b);
    bench_heap_add(p);
    return p;
}

void *bench_realloc(void *q, size_t n)
{
    size_t old = q != NULL ? malloc_usable_size(q) : 0;
    void *p = realloc(q, n);
    if (p != NULL || n == 0) {
        bench_heap_cur -= old;
        bench_heap_add(p);
    }
    return p;
}

void bench_free(void *p)
{
    if (p != NULL)
        bench_heap_cur -= malloc_usable_size(p);
    free(p);
}

/* Peak heap bytes, above what was live before, during one call of fn. */
static double bench_peak_heap(bench_fn fn, void *ctx)
{
    size_t base = bench_heap_cur;
    bench_heap_peak = base;
    fn(ctx);
    return (double)(bench_heap_peak - base);
}
#endif

/* ---- deferred free (drivers built with -DBENCH_DEFER_FREE, see model_hooks.h) ---- */
#ifdef BENCH_DEFER_FREE
static void **bench_deferred = NULL;
static size_t bench_ndeferred = 0, bench_deferred_cap = 0;

/* The heap counters treat the block as freed now (that is when the adjoint frees it). */
void bench_deferred_free(void *p)
{
    if (p == NULL)
        return;
#ifdef BENCH_TRACK_ALLOC
    bench_heap_cur -= malloc_usable_size(p);
#endif
    if (bench_ndeferred == bench_deferred_cap) {
        bench_deferred_cap = bench_deferred_cap ? 2 * bench_deferred_cap : 64;
        bench_deferred = realloc(bench_deferred, bench_deferred_cap * sizeof(void *));
        if (bench_deferred == NULL)
            abort();
    }
    bench_deferred[bench_ndeferred++] = p;
}

static void bench_flush_deferred(void)
{
    while (bench_ndeferred > 0)
        free(bench_deferred[--bench_ndeferred]);
}
#else
#define bench_flush_deferred() ((void)0)
#endif

#endif
