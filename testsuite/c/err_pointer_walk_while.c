/* adgen-test
head: while_rows(out)/(x)
arg n: int = 3
arg l: int = 2
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[n*l]
expect-error: an alias of 'out' walks over it in a while loop
expect-error-line: 16
*/
/* Must be refused: the pointer walks `out` in a while loop, whose iterations adgen does
 * not count (a loop that counts as a for loop does, `k = 0; while (k < l) { ...; k++; }`
 * or `while (k++ < l)`, is read as that for loop: testsuite/c/counted_while_loops.c,
 * counted_in_loop_test.c; here the step comes first); the length is not inferred
 * (--size out=n*l would give it). */

void while_rows(int n, int l, const double *x, double *out)
{
    double *p = out;
    int k = 0, i;
    while (k < l) {
        k++;
        for (i = 0; i < n; i++)
            p[i] = p[i] * x[i];
        p += n;
    }
}
