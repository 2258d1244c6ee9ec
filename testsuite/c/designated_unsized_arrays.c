/* adgen-test
head: f(f)/(x)
arg x: double = 0.7
*/
/* Arrays of unknown size set from lists with array designators: the length is one past the
 * last element the list sets (`{[3] = 1.0, x, [1] = 2.0 * x}` has 5 elements, as C counts
 * them), for a local and for a compound literal; unset elements are zero. */
double f(double x)
{
    double w[] = {[3] = 1.0, x, [1] = 2.0 * x};
    double *v = (double[]){[2] = x * x};
    int n = (int)(sizeof w / sizeof w[0]);
    return w[0] + w[1] * w[4] + w[3] * v[2] + v[0] + (double)n * x;
}
