/* adgen-test
head: f(y)/(x w)
arg n: int = 5
arg x: double[n] = uniform(0.2, 1.2)
arg w: double[n] = uniform(0.2, 1.2)
arg y: double[1]
sizes: give
*/
/* Memory reached through a choice of addresses: `(c ? x : w)[i]`, `*(c ? &a : &b)` read
 * and written, `(c ? &p : &q)->v`. The reverse mode went through it as through a pointer
 * it could not follow ("what the backward sweep reads did not settle"); the choice is now
 * put into a pointer first, as the program would write it. */
typedef struct { double v; } V;
void f(int n, const double *x, const double *w, double *y)
{
    double s = 0.5, a = x[1], b = w[2];
    V p = {x[3]}, q = {w[0]};
    for (int i = 0; i < n; i++) {
        s += (i % 2 ? x : w)[i] * s;
        s += *(i % 3 ? &a : &b) * 0.1;
        s += (i > 1 ? &p : &q)->v * 0.2;
        *(i % 2 ? &a : &b) = s * 0.5;
    }
    y[0] = s + a * b;
}
