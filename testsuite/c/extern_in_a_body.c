/* adgen-test
head: f(f)/(x)
arg x: double[3] = uniform(0.2, 1.2)
*/
/* A body that names a global through a block-scope `extern` declaration (older code,
 * and code whose globals live in another file): it is the file-scope variable, which
 * the helper sets and the body reads (it was read as a new local, zero). One global
 * is declared only inside the body, before the file defines it. */
static void put(double v);

double gs;

double f(const double *x)
{
    extern double gs;
    extern double late[2];
    put(x[0]);
    late[0] = gs * x[2];
    late[1] = late[0] + x[1];
    return gs * x[1] + late[1] * late[0];
}

double late[2];

static void put(double v)
{
    gs = v * v;
}
