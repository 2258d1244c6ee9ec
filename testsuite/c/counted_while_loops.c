/* adgen-test
head: rows_scaled(out)/(x w)
arg n: int = 3
arg l: int = 4
arg x: double[n] = uniform(0.5, 1.5)
arg w: double[l]
arg out: double[n*l]
*/
/* While loops that count, as for loops written otherwise: `k = 0; while (k < l) { ...;
 * k++; }`, a countdown `i = n - 1; while (i >= 0) { ...; i--; }`, one left by break, and a
 * pointer walking the rows of out in one. Each is the for loop it equals, whose iterations
 * adgen counts: out, added to (its values are read), gets its length, n*l. It was refused
 * ("an alias of 'out' walks over it in a while loop, whose iterations adgen does not
 * count", "an index of 'out' has no known bound"). A while loop with a continue of its
 * own is not a for loop (the continue would skip the increment): it stays a while. */
void rows_scaled(int n, int l, const double *x, const double *w, double *out)
{
    double *p = out;
    int k, i;
    k = 0;
    while (k < l) {
        i = 0;
        while (i < n) {
            p[i] += w[k] * x[i];
            i++;
        }
        p += n;
        k++;
    }
    i = n * l - 1;
    while (i >= 0) {
        out[i] *= 1.0 + 0.5 * w[i / n];
        i--;
    }
    k = 0;
    while (k < l) {
        if (w[k] > 0.9)
            break;
        out[k * n] += w[k] * w[k];
        k += 1;
    }
    double s = 0.0;
    k = 0;
    while (k < n) {
        k = k + 1;
        if (x[k - 1] < 1.0)
            continue;
        s += x[k - 1] * x[k - 1];
    }
    out[0] += s;
}
