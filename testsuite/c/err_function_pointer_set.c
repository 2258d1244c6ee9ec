/* adgen-test
head: integrate(integrate)/(y0)
arg n: int = 4
arg y0: double = 0.8
expect-error: call through the function pointer 'model_rhs', which 'choose' sets
expect-error-line: 27
*/
/* A static function pointer a function of the file sets (a model chosen at run time):
 * adgen cannot tell which function a call through it calls. */
typedef double (*rhs_fn)(double y);

static double decay(double y) { return -y; }
static double growth(double y) { return 0.5 * y; }

static rhs_fn model_rhs = decay;

void choose(int which)
{
    model_rhs = which ? growth : decay;
}

double integrate(int n, double y0)
{
    double y = y0;
    int i;
    for (i = 0; i < n; i++)
        y = y + 0.1 * model_rhs(y);
    return y;
}
