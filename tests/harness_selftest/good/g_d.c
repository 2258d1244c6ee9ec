void g_d(int n, double *z, double *zd, const double *w, const double *wd)
{
    int i;
    for (i = 0; i < n; i++) {
        zd[i] = 2 * z[i] * zd[i] + wd[i];
        z[i] = z[i] * z[i] + w[i];
    }
}
