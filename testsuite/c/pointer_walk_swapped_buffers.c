/* adgen-test
head: diffuse(u)/(u kappa)
arg n: int = 6
arg steps: int = 3
arg u: double[n] = uniform(0.5, 1.5)
arg work: double[n]
arg kappa: double[n-1] = uniform(0.1, 0.3)
*/
/* Double buffering: two local pointers swapped after each step (`t = cur; cur = next;
 * next = t;`), so each points at u or at work depending on the step; the result is copied
 * back from wherever cur points. The work buffer carries derivatives but is neither
 * independent nor dependent: its length, n, is what either pointer reaches while it
 * points there. */

void diffuse(int n, int steps, double *u, double *work, const double *kappa)
{
    double *cur = u, *next = work, *t;
    int s, i;
    for (s = 0; s < steps; s++) {
        next[0] = cur[0];
        next[n - 1] = cur[n - 1];
        for (i = 1; i < n - 1; i++)
            next[i] = cur[i] + kappa[i] * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
        t = cur;
        cur = next;
        next = t;
    }
    for (i = 0; i < n; i++)
        u[i] = cur[i] * cur[i];
}
