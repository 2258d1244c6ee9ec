/* adgen-test
head: axpy_update(y)/(a x y)
head: axpy_update(y)/(a x)
arg n: int = 6
arg a: double = uniform(-2, 2)
arg x: double[n] = uniform(-1, 1)
arg y: double[n] = uniform(-1, 1)
head: gradient_step(theta loss)/(theta)
arg n: int = 4
arg theta: double[n] = uniform(-1, 1)
arg lr: double = 0.1
arg loss: double[1]
*/
/* In/out arguments.  axpy_update's y is read and written: with the first head it is
 * independent and dependent (in/out: its adjoint is replaced by J^T ybar), with the second
 * it is a pure output whose input value is passive, though still read.  gradient_step
 * updates theta in place by one gradient step of a Rosenbrock-like function and also
 * returns the loss before the step. */
void axpy_update(int n, double a, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = y[i] * (1.0 + 0.1 * y[i]) + a * x[i];
}

void gradient_step(int n, double *theta, double lr, double *loss)
{
    double g[16];
    int i;
    loss[0] = 0.0;
    for (i = 0; i < n; i++)
        g[i] = 0.0;
    for (i = 0; i + 1 < n; i++) {
        double d = theta[i + 1] - theta[i] * theta[i];
        double e = 1.0 - theta[i];
        loss[0] += 10.0 * d * d + e * e;
        g[i] += -40.0 * theta[i] * d - 2.0 * e;
        g[i + 1] += 20.0 * d;
    }
    for (i = 0; i < n; i++)
        theta[i] -= lr * g[i];
}
