/* adgen-test
head: f(y)/(x)
arg n: int = 6
arg x: double[n+1] = {1.1, 0.9, 1.2, 0.8, 1.3, 0.5, 1.4}
arg y: double[3]
*/
/* &&, || and ?: are sequence points: an increment in the left operand (the test) takes
 * effect before the right operand (a branch) is evaluated. The loop reads x[i] after
 * i++; it was read before, and the loop ran one step too many from the wrong elements. */
void f(int n, const double *x, double *y)
{
    int i = 0, k = 0, j = n;
    double s = 0.0, t = 0.0, w = 0.0;
    while (i++ < n && x[i] > 0.7)
        s += x[i];
    y[0] = s + x[0] * (double)i;
    while (k < n) {
        t += (k++ % 2 == 0) ? x[k] : -0.5 * x[k - 1];
    }
    y[1] = t;
    while (--j < 2 || (w = x[j] * w + x[j]) < 3.0) {
        if (j <= 0)
            break;
    }
    y[2] = w + x[n];
}
