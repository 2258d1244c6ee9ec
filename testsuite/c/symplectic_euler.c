/* adgen-test
head: oscillate(cost)/(state)
arg n: int = 60
arg state: double[2] = {1.0, 0.5}
arg cost: double[1]
tol: 1e-5
*/
/* Symplectic Euler steps of x'' = x with a large step: the iterates grow by a factor of
 * about 1.6 a step, so an error made restoring x or y in the backward sweep grows as
 * fast. Each step overwrites x and y by increments (x += dt*y): the backward sweep must
 * get their old values back exactly (stored), not by subtracting the increment again,
 * which rounds. The cost reads the first steps only. */
void oscillate(int n, const double *state, double *cost)
{
    double x = state[0], y = state[1];
    const double dt = 0.5;
    double c = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        x += dt * y;
        y += dt * x;
        if (i < 3)
            c += x * x + y;
    }
    cost[0] = c + 1e-30 * x;
}
