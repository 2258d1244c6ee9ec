/* adgen-test
head: spring_energy(spring_energy)/(x k)
arg n: int = 5
arg x: double[n] = uniform(-1, 1)
arg k: double = 1.5
*/
/* C99 designated initializers of locals (they were refused with a message naming a parser
 * class and no line): struct fields by name, nested ones, array elements by index, values
 * after a designator going on from its place, what is left out zero; inside a loop body
 * they are set again on every iteration. */
typedef struct {
    double k, c;
    double rest[3];
} Coef;

typedef struct {
    Coef coef;
    int active;
} Spring;

double spring_energy(int n, const double *x, double k)
{
    Spring s = {.coef = {.k = 2.0, .rest = {[2] = 0.25, [0] = 0.1}}, .active = 1};
    double w[6] = {[3] = 0.5, 0.75, [1] = 2.0};
    double e = 0.0;
    int i;
    s.coef.c = 0.5 * k;
    for (i = 0; i < n; i++) {
        Coef local = {.c = k * x[i], .k = 1.0};
        double d = x[i] - s.coef.rest[i % 3];
        e += s.active * (s.coef.k * d * d + s.coef.c * d) + local.c * local.k * w[i % 6];
        e += local.rest[1] + w[5] + w[0];
    }
    return e;
}
