/* adgen repro: extent inference fails for a loop with a variable step. Head f(y)/(w). */
void f(int n, int b, const double *w, double *s, double *y)
{
    int i;
    y[0] = 0.0;
    for (i = 0; i < n; i += b) {
        s[i] = s[i] * w[i];
        y[0] = y[0] + s[i];
    }
}
