/* One-dimensional heat equation, explicit Euler in time, the ends held at zero:
 *
 *   u[i] += kappa dt/dx^2 (u[i-1] - 2 u[i] + u[i+1]),   steps times,
 *
 * starting from u0; the temperatures at the end go to u. The example of fitting the
 * diffusivity kappa to observed temperatures (docs/python-api.md, "PyTorch").
 */
void heat(int n, int steps, double dt, double kappa, const double *u0, double *u)
{
    double dx = 1.0 / (n + 1);
    double r = kappa * dt / (dx * dx);
    for (int i = 0; i < n; i++)
        u[i] = u0[i];
    for (int s = 0; s < steps; s++) {
        double left = 0.0;      /* u[i - 1] before this step */
        for (int i = 0; i + 1 < n; i++) {
            double here = u[i];
            u[i] = here + r * (left - 2.0 * here + u[i + 1]);
            left = here;
        }
        u[n - 1] += r * (left - 2.0 * u[n - 1]);
    }
}
