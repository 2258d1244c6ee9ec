/* adgen-test
head: masked_series(out)/(x)
arg n: int = 9
arg x: double[n] = uniform(0.5, 1.5)
arg mask: int[n] = {1, 0, 1, 1, 0, 1, 1, -1, 1}
arg out: double[2]
*/
/* A running product and a damped sum over the entries of x: entries whose mask is 0 are
 * skipped (continue), a negative mask ends the loop (break).  A second loop searches for the
 * first entry above a threshold (break on a comparison of active values). */
void masked_series(int n, const double *x, const int *mask, double *out)
{
    double s = 0.0, p = 1.0, first = 0.0;
    int i;
    for (i = 0; i < n; i++) {
        if (mask[i] == 0)
            continue;
        if (mask[i] < 0)
            break;
        p *= x[i];
        s += p / (i + 1);
    }
    for (i = 0; i < n; i++) {
        if (x[i] < 1.2)
            continue;
        first = x[i] * x[i];
        break;
    }
    out[0] = s + first;
    out[1] = p;
}
