/* hand-written tangent of ffun (tiny.f90), for tests/test_harness.py */
double ffun_d_(int *m, double *z, double *zd, double *ffun)
{
    int i;
    double f = 0.0, fd = 0.0;
    for (i = 0; i < *m; i++) {
        f += z[i] * z[i];
        fd += z[i] * zd[i];
    }
    *ffun = f / 2.0;
    return fd;
}
