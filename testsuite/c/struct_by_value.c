/* adgen-test
head: scaled_matvec(y)/(a x)
arg shape: Shape = {3, 4, 0.5}
arg a: double[shape.rows*shape.cols]
arg x: double[shape.cols] = uniform(-2, 2)
arg y: double[shape.rows]
*/
/* A struct passed by value carries the sizes and a constant of the computation:
 * y = tanh(scale * A x) for a rows x cols matrix A. */
#include <math.h>

typedef struct {
    int rows;
    int cols;
    double scale;
} Shape;

static double row_dot(Shape s, const double *arow, const double *x)
{
    double acc = 0.0;
    int j;
    for (j = 0; j < s.cols; j++)
        acc += arow[j] * x[j];
    return s.scale * acc;
}

void scaled_matvec(Shape shape, const double *a, const double *x, double *y)
{
    int i;
    for (i = 0; i < shape.rows; i++)
        y[i] = tanh(row_dot(shape, &a[i * shape.cols], x));
}
