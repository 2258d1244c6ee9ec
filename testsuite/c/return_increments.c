/* adgen-test
head: chain(chain)/(x w)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg w: double[4] = uniform(0.5, 1.5)
head: tail(tail)/(x)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
*/
/* Increments and decrements inside a return expression (they were refused): the value
 * returned is read before a postfix one runs and after a prefix one; on a local, a
 * pointed-to counter, a pointed-to number, an array element and a pointer, integer and
 * floating, and in a return that converts the value to the function's type. */
static int pick(int *k)
{
    return (*k)++ % 4;
}

static double take(const double *x, int *pos)
{
    return x[(*pos)++];
}

static double bump(double *acc)
{
    return (*acc)++ * 2.0;
}

static double raise_first(double *v, int i, int j)
{
    return ++v[i] * v[j];
}

static int count_down(int *cnt, int j)
{
    return cnt[j]--;
}

static double halve(double t)
{
    t = t * 0.5;
    return t--;
}

static double decayed(double t, int n)
{
    return --n > 0 ? t * n : t;
}

static double as_double(int *k)
{
    return (*k)--;
}

static float tick(float *c)
{
    return (*c)++;
}

static const double *advance(const double **pp)
{
    return (*pp)++;
}

double chain(int n, const double *x, double *w)
{
    int k = 1, pos = 0, i;
    int cnt[2] = {3, 5};
    double s = 0.0, acc = x[0];
    float clock = 0.5f;
    for (i = 0; i < n; i++) {
        s += w[pick(&k)] * take(x, &pos);
        s += bump(&acc) * x[i] + count_down(cnt, i % 2) * x[i];
        s += tick(&clock) * x[i];
    }
    s += raise_first(w, 0, 1) + acc * w[2] + halve(w[3]) + decayed(x[1], cnt[0]);
    s += w[0] * k;
    s += as_double(&k) * x[2];
    return s + k;
}

double tail(int n, const double *x)
{
    double t = 0.0;
    const double *p = x;
    int i;
    for (i = 0; i < n; i++)
        t += x[i] * x[n - 1 - i];
    t += *advance(&p) * *advance(&p) + p[0];
    return t++ * x[--n];
}
