/* adgen-test
head: view_dot(view_dot)/(a b)
arg a: CView = handle
field a.n: int = 4
field a.stride: int = 2
field a.scale: double = uniform(0.5, 1.5)
field a.data: double[a.n * a.stride]
arg b: CView = handle
field b.n: int = 4
field b.stride: int = 1
field b.scale: double = uniform(0.5, 1.5)
field b.data: double[b.n * b.stride]
head: view_axpy(y)/(alpha x y)
arg alpha: double = uniform(0.5, 1)
arg x: CView = handle
field x.n: int = 5
field x.stride: int = 1
field x.scale: double = uniform(0.5, 1.5)
field x.data: double[x.n * x.stride]
arg y: View = handle
field y.n: int = 5
field y.stride: int = 3
field y.scale: double = uniform(0.5, 1.5)
field y.data: double[y.n * y.stride]
sizes: give
*/
/* Strided views of arrays passed by value, as linear-algebra code passes vector views
 * (length, stride, a scale and the data pointer): a scaled dot product of two views, and
 * y <- alpha x + tanh(y) through a view of y, which is in and out: the arrays its
 * pointer leads to change, its fields (the caller's, by value) do not, so their adjoints
 * come back added to their seeds. The views skip elements between their strides: the
 * arrays' lengths are given (sizes: give), so the adjoints set the skipped ones, through
 * the derivative struct's const pointer field. */
#include <math.h>

typedef struct {
    int n, stride;
    double scale;
    const double *data;
} CView;

typedef struct {
    int n, stride;
    double scale;
    double *data;
} View;

static double at(CView v, int i)
{
    return v.scale * v.data[i * v.stride];
}

double view_dot(CView a, CView b)
{
    double s = 0.0;
    int i;
    for (i = 0; i < a.n; i++)
        s += at(a, i) * sin(at(b, i));
    return s;
}

void view_axpy(double alpha, CView x, View y)
{
    int i;
    for (i = 0; i < y.n; i++) {
        double *yi = &y.data[i * y.stride];
        *yi = alpha * at(x, i) + y.scale * tanh(*yi);
    }
    y.scale = 0.0;      /* the function's own copy */
}
