/* adgen-test
head: moments(out)/(x w)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg w: double = uniform(0.5, 1.5)
arg out: double[4]
*/
/* memset to zero of structs (it was refused): a local struct by `sizeof s` and by
 * `sizeof(Stats)`, one reached through a pointer parameter, a nested struct field, a
 * struct holding a pointer (set to NULL, then pointed again), a local array of structs
 * whole and in part, and a heap array of structs by `n * sizeof *acc`. Fields holding
 * active values before the memset have derivative zero after it; those set after it
 * carry the derivative of what they are set to. Array fields of numbers, short and long
 * (zeroed in a loop), and integer fields. */
#include <stdlib.h>
#include <string.h>

typedef struct {
    double sum, sq;
    int count;
    double last[3];
} Acc;

typedef struct {
    Acc acc;
    double scale;
    double *focus;
    double hist[80];
} Stats;

static void acc_reset(Acc *a)
{
    memset(a, 0, sizeof *a);
}

static void acc_add(Acc *a, double v)
{
    a->sum += v;
    a->sq += v * v;
    a->last[a->count % 3] = v;
    a->count++;
}

void moments(int n, const double *x, double w, double *out)
{
    Stats s;
    Acc pair[4];
    Acc *acc = malloc(n * sizeof *acc);
    int i;
    s.scale = w;
    s.acc.sum = w * w;
    s.focus = &s.scale;
    s.hist[70] = w;
    memset(&s, 0, sizeof s);            /* scale, sum and hist[70] lose w's derivative */
    out[0] = s.scale + s.acc.sum + s.hist[70] + (s.focus == NULL);
    s.scale = 2.0 * w;
    s.focus = &s.scale;
    for (i = 0; i < n; i++) {
        acc_add(&s.acc, x[i] * *s.focus);
        s.hist[i] = x[i];
    }
    out[1] = s.acc.sum / s.acc.count + s.acc.sq * s.acc.last[1] + s.hist[n - 1];
    memset(&s.acc, 0, sizeof(Acc));
    memset(&s, 0, sizeof(Stats));
    acc_add(&s.acc, w);
    for (i = 0; i < 4; i++) {
        acc_reset(&pair[i]);
        acc_add(&pair[i], x[i] * w);
        acc_add(&pair[i], x[i + 1]);
    }
    memset(pair + 1, 0, 2 * sizeof *pair);
    out[2] = pair[0].sq + pair[1].sum + pair[2].last[0] + pair[3].last[1] * s.acc.sum;
    memset(pair, 0, sizeof pair);
    for (i = 0; i < n; i++) {
        acc[i].sum = x[i] * w;
        acc[i].last[2] = x[i];
    }
    memset(acc, 0, (n - 2) * sizeof *acc);
    out[3] = pair[3].sq + acc[n - 1].sum * acc[n - 2].last[2] + acc[0].sum + acc[1].last[2];
    for (i = 0; i < n; i++) {
        memset(&acc[i], 0, sizeof acc[i]);
        acc_add(&acc[i], x[i] * x[i]);
        out[3] += acc[i].sq;
    }
    free(acc);
}
