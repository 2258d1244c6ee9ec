/* adgen-test
head: strided_blocks(out)/(x)
arg n: int = 2
arg l: int = 4
arg s: int = 3
arg x: double[n] = uniform(0.5, 1.5)
arg out: double[s*(l-1)+n]
*/
/* Walks whose stride is not the length of the inner loop: blocks of n numbers s apart
 * (the numbers between blocks untouched), and a second pointer stepping by 3 over single
 * numbers. The buffer's length is what the farthest walk reaches, s*(l-1)+n; the
 * numbers no walk touches inside it are no less part of it (their seeds are consumed). */

void strided_blocks(int n, int l, int s, const double *x, double *out)
{
    double *p = out;
    double *q = out + 1;
    int k, i;
    for (k = 0; k < l; k++) {
        for (i = 0; i < n; i++)
            p[i] = p[i] * x[i] + 1.0;
        p += s;
    }
    for (k = 0; k < l; k++) {
        q[0] = q[0] * x[0];
        q += 3;
    }
}
