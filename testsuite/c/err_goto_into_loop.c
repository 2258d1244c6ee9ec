/* adgen-test
head: f(f)/(x)
arg n: int = 4
arg x: double[n]
expect-error: jumps into a loop, an if or a block it is not in
expect-error-line: 16
*/
/* Must be refused: the goto enters a loop's body from outside, which no structured code
 * expresses. */
double f(int n, const double *x)
{
    double s = 0.0;
    int i = 0;
    if (x[0] > 0.5) {
        i = 1;
        goto inside;
    }
    for (i = 0; i < n; i++) {
        s += x[i];
    inside:
        s *= 0.9;
    }
    return s;
}
