/* hand-written adjoint of ffun (tiny.f90), for tests/test_harness.py */
void ffun_b_(int *m, double *z, double *zb, double *ffunb)
{
    int i;
    for (i = 0; i < *m; i++)
        zb[i] = z[i] * *ffunb;
    *ffunb = 0.0;
}
