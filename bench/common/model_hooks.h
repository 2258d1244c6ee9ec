/* Force-included (gcc -include) into model objects in two special builds; the normal timing
 * build of a model object does not use it.
 *   -DBENCH_TRACK_ALLOC  (memory build): heap calls go through the counters of bench.h.
 *   -DBENCH_DEFER_FREE   (workaround build of an adjoint that writes to memory after freeing
 *                         it): free() only queues the block; the driver releases the queue
 *                         right after the adjoint returns, inside the timed region. */
#include <stdlib.h>
#include <string.h>
#ifdef BENCH_TRACK_ALLOC
void *bench_malloc(size_t n);
void *bench_calloc(size_t a, size_t b);
void *bench_realloc(void *p, size_t n);
void bench_free(void *p);
#define malloc(n) bench_malloc(n)
#define calloc(a, b) bench_calloc(a, b)
#define realloc(p, n) bench_realloc(p, n)
#endif
#ifdef BENCH_DEFER_FREE
void bench_deferred_free(void *p);
#define free(p) bench_deferred_free(p)
#elif defined(BENCH_TRACK_ALLOC)
#define free(p) bench_free(p)
#endif
