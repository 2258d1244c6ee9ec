/* adgen-test
head: trimmed_mean(out)/(x)
arg n: int = 9
arg x: double[n] = uniform(-3, 3)
arg out: double[3]
*/
/* Sorting active values by comparisons (insertion sort on a local copy, with a while loop
 * shifting elements): the derivative follows the permutation.  Outputs the trimmed mean,
 * the median and the range. */
void trimmed_mean(int n, const double *x, double *out)
{
    double s[64];
    double acc = 0.0;
    int i, j;
    for (i = 0; i < n; i++)
        s[i] = x[i];
    for (i = 1; i < n; i++) {
        double key = s[i];
        j = i - 1;
        while (j >= 0 && s[j] > key) {
            s[j + 1] = s[j];
            j--;
        }
        s[j + 1] = key;
    }
    for (i = 2; i < n - 2; i++)
        acc += s[i];
    out[0] = acc / (n - 4);
    out[1] = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    out[2] = s[n - 1] - s[0];
}
