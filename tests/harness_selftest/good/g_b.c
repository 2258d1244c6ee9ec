void g_b(int n, double *z, double *zb, const double *w, double *wb)
{
    int i;
    for (i = 0; i < n; i++) {
        double z0 = z[i];
        z[i] = z0 * z0 + w[i];
        wb[i] = zb[i];
        zb[i] = 2 * z0 * zb[i];
    }
}
