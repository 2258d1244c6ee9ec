/* adgen-test
head: f(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.5, 1.5)
arg y: double[2]
*/
/* Local arrays sized by enumerators (one defined from another) with initializer lists,
 * a constant table, a function-like macro and C99 spellings (restrict, hexadecimal
 * floating constants, declarations in a for loop's header, long double constants). */
enum { DIM = 3, ROWS = DIM + 1, STEPS = 2 * ROWS };
#define SQ(v) ((v) * (v))

static const double W[DIM][2] = {{0.5, 0x1p-2}, {1e-1, 2.0}, {0.75, -0.5}};

static inline double lerp(double a, double b, double t)
{
    return a + (b - a) * t;
}

void f(int n, const double *restrict x, double *restrict y)
{
    double m[ROWS][2] = {{0}};
    double c[DIM] = {1.0, 0.5};
    long s;
    for (int i = 0, j = n - 1; i < DIM; i++, j--) {
        m[i][0] = SQ(x[i]) * W[i][0] + c[i];
        m[i][1] = lerp(x[j], x[i], W[i][1]);
    }
    for (s = 0; s < STEPS; s++) {
        unsigned u = (unsigned)s % ROWS;
        m[u][0] += m[(u + 1u) % DIM][1] / (double)(s + 1);
    }
    y[0] = 0.0;
    for (int i = 0; i < ROWS; i++)
        y[0] += m[i][0] * m[i][1] * 1.5;
    y[1] = m[0][0] + m[2][1] * 1.0L;
}
