/* adgen-test
head: spring_chain(energy)/(x k)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg k: double = uniform(0.5, 1.5)
arg energy: double[1]
*/
/* C99 compound literals (they were refused): an array literal pointed to, of unknown and
 * of given size, partly listed (the rest zero); struct literals assigned, passed by value
 * and by address, with designators and nested; an array literal passed to a pointer
 * parameter; literals in a loop body (set again on every iteration, also after the loop
 * body wrote into one), in a loop condition, in the branches of `?:` and the right operand
 * of `&&`, and a const one indexed where it is written. */
typedef struct {
    double stiff;
    int order;
} Term;

typedef struct {
    Term term;
    double rest[3];
} Spring;

static double term_value(Term t, double d)
{
    return t.order == 2 ? t.stiff * d * d : t.stiff * d;
}

static double spring_value(const Spring *s, double d)
{
    return term_value(s->term, d - s->rest[0]) + s->rest[1] * s->rest[2];
}

static double weighted(const double *w, const double *v)
{
    return w[0] * v[0] + w[1] * v[1] + w[2] * v[2];
}

void spring_chain(int n, const double *x, double k, double *energy)
{
    double *coef = (double[]){k, 2.0 * k, 0.5};
    double *scale = (double[4]){k * k, 1.5};
    Term lin = (Term){.order = 1, .stiff = 0.25 * k};
    Spring s = (Spring){(Term){k, 2}, {0.1, k}};
    double e = 0.0;
    int i = 0;
    for (i = 0; i + 1 < n; i++) {
        double *d = (double[3]){x[i + 1] - x[i], x[i]};
        e += spring_value(&s, d[0]) + term_value((Term){coef[i % 3], 2}, d[1]);
        e += weighted((double[3]){d[0], d[1], k}, coef) + d[2] * scale[3];
        d[2] = e;       /* the next iteration's literal is zero there again */
        e += i % 2 == 0 ? term_value((Term){x[i], 1}, k) : spring_value(&(Spring){lin, {k}}, x[i]);
        if (x[i] > -2.0 && term_value((Term){.stiff = x[i]}, k) < 3.0)
            e += 0.1 * x[i] * k;
    }
    i = 0;
    while (weighted((double[]){x[i], 1.0, 0.0}, (double[]){1.0, i, 0.0}) < 4.0 && i < n - 1) {
        e += ((const double[]){x[i] * k, 2.0, lin.stiff})[i % 3] * scale[1] + scale[0] * x[i];
        i++;
    }
    *energy = e;
}
