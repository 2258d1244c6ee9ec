/* adgen-test
head: f(y)/(x)
arg n: int = 5
arg x: double[n] = uniform(0.2, 1.2)
arg y: double[1]
*/
/* An active global `acc` whose derivative would be the global `accb` / `accd`, while the
 * head has locals of those names, which would hide it in the head (every derivative 0,
 * and the tangent's primal value wrong): the derivative global takes another name. */
double acc;

static void add(double v)
{
    acc += v * v;
}

void f(int n, const double *x, double *y)
{
    double accb = 2.0;
    double accd = 3.0;
    int i;
    acc = 0.0;
    for (i = 0; i < n; i++)
        add(x[i] * accb);
    y[0] = acc * acc + accd * acc;
}
