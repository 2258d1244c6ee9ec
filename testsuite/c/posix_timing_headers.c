/* adgen-test
head: kernel_2mm(out)/(alpha a)
arg n: int = 4
arg alpha: double = 1.5
arg a: double[n*n] = uniform(-1, 1)
arg out: double[n*n]
*/
/* A benchmark-suite kernel as such suites write them: the POSIX headers for timing and
 * I/O, a timer read around the computation, the time printed to stderr. The headers are
 * declarations adgen does not differentiate through. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

void kernel_2mm(int n, double alpha, const double *a, double *out)
{
    struct rusage usage;
    struct timespec ts;
    double t0 = now();
    int i, j, k;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            out[i * n + j] = 0.0;
            for (k = 0; k < n; k++)
                out[i * n + j] += alpha * a[i * n + k] * a[k * n + j];
        }
    getrusage(RUSAGE_SELF, &usage);
    if (errno == ERANGE)
        fprintf(stderr, "range error\n");
    if (now() - t0 > 3600.0)
        fprintf(stderr, "took %f s (%" PRId64 " ms user)\n", now() - t0,
                (int64_t)usage.ru_utime.tv_sec * 1000);
}
