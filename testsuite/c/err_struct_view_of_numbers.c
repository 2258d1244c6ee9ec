/* adgen-test
head: f(f)/(c)
arg n: int = 2
arg c: double[6] = uniform(0.2, 1.2)
expect-error: '(V3 *)c' views active memory of numbers as V3
expect-error-line: 16
*/
/* Must be refused: interleaved x, y, z viewed as an array of structs through a pointer
 * cast. The memory model keeps a struct's fields apart from the numbers of the array,
 * so the derivatives did not follow the view (all of them zero but one, silently). */
typedef struct { double x, y, z; } V3;

double f(int n, double *c)
{
    double s = c[0];
    V3 *p = (V3 *)c;
    int i;
    for (i = 0; i < n; i++)
        s += p[i].x * p[i].z + p[i].y;
    return s;
}
