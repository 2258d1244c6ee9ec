/* adgen-test
head: f(y)/(x)
arg n: int = 6
arg x: double[n] = uniform(-1, 1)
arg y: double[1]
*/
/* x is read in a loop left by break, so its length is not known: its adjoint is set
 * element by element where the forward sweep reads it. An element read only by the test
 * that leaves the loop still has its adjoint set (to zero). */
void f(int n, const double *x, double *y)
{
    int i;
    double s = 0.0;
    for (i = 0; i < n; i++) {
        do {
            if (x[i] > 0.0)
                break;
            s += x[i];
        } while (0);
    }
    y[0] = s;
}
