/* adgen-test
head: advance(advance)/(y0)
arg n: int = 4
arg y0: double = 0.8
expect-error: call through the function pointer 'm->rhs', in a struct that may come from outside the file
expect-error-line: 26
*/
/* Must be refused: the struct holding the function pointer reaches the file through a
 * parameter of a function callable from outside, whose caller may have set any function
 * there (the store adgen sees is not the only one). */
typedef struct {
    double (*rhs)(double y);
    double h;
} Model;

static double decay(double y) { return -y; }

void configure(Model *m)
{
    m->rhs = decay;
    m->h = 0.1;
}

static double step(const Model *m, double y)
{
    return y + m->h * m->rhs(y);
}

double advance(int n, double y0)
{
    Model m;
    int i;
    configure(&m);
    for (i = 0; i < n; i++)
        y0 = step(&m, y0);
    return y0;
}
