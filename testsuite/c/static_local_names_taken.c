/* adgen-test
head: step(y)/(x)
arg x: double[5] = uniform(0.2, 1.2)
arg y: double[1]
*/
/* Static locals, which the output stores at file scope as FUNCTION_LOCAL, where the
 * program already uses that name: `buf` of `step` beside the global `step_buf` (declared
 * before it) and `w` of `step` beside the global `step_w` (declared after it); `c` of
 * `mix_b` and `b_c` of `mix`, both `mix_b_c`; `t` of `step` beside a local `step_t` of
 * another function. Each takes a name nothing else uses. */
double step_buf[4] = {1.0, 2.0, 3.0, 4.0};

static void mix_b(const double *x, double *out)
{
    static double c[2];
    c[0] = x[0] * x[1];
    c[1] = x[2] + c[0];
    out[0] = c[0] * c[1];
}

static void mix(const double *x, double *out)
{
    static double b_c[2];
    double step_t = 0.5;
    b_c[0] = x[3] * step_t;
    b_c[1] = x[4] * b_c[0];
    mix_b(x, out);
    out[0] += b_c[1];
}

double step_w[2];

void step(const double *x, double *y)
{
    static double buf[5];
    static double w[2];
    static double t[1];
    double s = 0.0;
    for (int i = 0; i < 5; i++) buf[i] = x[i] * step_buf[i % 4];
    for (int i = 0; i < 5; i++) s += buf[i] * buf[i];
    mix(x, w);
    step_w[0] = 2.0;
    t[0] = w[0] * step_w[0];
    y[0] = s + t[0];
}
