/* adgen-test
head: ranked(ranked)/(x)
arg x: double[4] = uniform(-1, 1)
head: ranked_qsort(ranked_qsort)/(x)
arg x: double[5] = uniform(-1, 1)
head: pick_larger(pick_larger)/(x)
arg x: double[2] = uniform(-1, 1)
*/
/* A callee that moves pointers whose memory carries derivatives (sorting an array of
 * pointers to candidates, in the program's own loops or through qsort; setting a
 * caller's pointer through a pointer to it): the statements after the call reach the
 * candidates' adjoints through the shadows of those pointers, so the shadows must move
 * with them there and then (the adjoint went to the unsorted candidates). */
#include <stdlib.h>

typedef struct { double dist, weight; } Cand;

static void sort_by_dist(Cand **c, long n)
{
    for (long i = 1; i < n; i++)
        for (long j = i; j > 0; j--) {
            Cand *before = c[j - 1], *after = c[j];
            if (before->dist > after->dist) {
                c[j - 1] = after;
                c[j] = before;
            }
        }
}

double ranked(const double *x)
{
    Cand c[4];
    Cand *p[4];
    for (int i = 0; i < 4; i++) {
        c[i].dist = x[i] * x[i];
        c[i].weight = x[(i + 1) % 4];
        p[i] = &c[i];
    }
    sort_by_dist(p, 4);
    return p[0]->weight * p[1]->dist + p[3]->weight;
}

static int nearer(const void *a, const void *b)
{
    const Cand *const *pa = a, *const *pb = b;
    return ((*pa)->dist > (*pb)->dist) - ((*pa)->dist < (*pb)->dist);
}

double ranked_qsort(const double *x)
{
    Cand c[5];
    Cand *p[5];
    for (int i = 0; i < 5; i++) {
        c[i].dist = (x[i] - 0.1) * (x[i] - 0.1);
        c[i].weight = 1.0 + x[(i + 2) % 5];
        p[i] = &c[i];
    }
    qsort(p, 5, sizeof p[0], nearer);
    return p[0]->weight * p[0]->dist + p[1]->weight - p[4]->dist * p[2]->weight;
}

static void choose(double **best, double *a, double *b)
{
    *best = *a > *b ? a : b;
}

double pick_larger(const double *x)
{
    double a = x[0] * x[1], b = x[1] - x[0], *best = &a;
    choose(&best, &a, &b);
    return *best * *best + a;
}
