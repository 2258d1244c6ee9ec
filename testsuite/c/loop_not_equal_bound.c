/* adgen-test
head: moments(m)/(x)
arg n: int = 6
arg x: double[n] = uniform(0.5, 1.5)
arg m: double[3]
head: moments(m x)/(x)
*/
/* Loops that end on `!=`, as code written in C++'s style does (`for (i = 0; i != n; ++i)`,
 * a countdown `for (k = n - 1; k != -1; --k)`): with a step of one the counter reaches the
 * bound, so they run as `<` and `>` loops do, and bound the indices alike. m, added to,
 * and x, changed in place, need their lengths: they were refused ("an index of 'm' has no
 * known bound"). */
void moments(int n, double *x, double *m)
{
    int i, k;
    for (i = 0; i != n; ++i) {
        m[0] += x[i];
        m[1] += x[i] * x[i];
    }
    for (k = n - 1; k != -1; --k)
        x[k] = x[k] * m[0] / n;
    for (k = 0; k != 3; k++)
        m[k] *= 0.5;
    m[2] += m[1] - m[0] * m[0];
}
