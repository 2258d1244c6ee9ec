/* adgen-test
head: cross_norm(out)/(a b)
arg a: double[3]
arg b: double[3]
arg out: double[3]
*/
/* Parameters of a typedef'd array type (`typedef double vec3[3]`), const or not, in the head
 * and in helpers: they are pointers to their elements, carrying derivatives. They were taken
 * for arrays of their own, and a helper's were left without derivatives. */
#include <math.h>

typedef double vec3[3];
typedef double mat2[2][2];

static void cross(const vec3 u, const vec3 v, vec3 w)
{
    w[0] = u[1] * v[2] - u[2] * v[1];
    w[1] = u[2] * v[0] - u[0] * v[2];
    w[2] = u[0] * v[1] - u[1] * v[0];
}

static double det2(const mat2 m)
{
    return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}

static void scale(vec3 w, double s)
{
    int k;
    for (k = 0; k < 3; k++)
        w[k] *= s;
}

void cross_norm(const vec3 a, const vec3 b, vec3 out)
{
    vec3 c;
    mat2 m;
    double n;
    cross(a, b, c);
    m[0][0] = a[0];
    m[0][1] = b[0];
    m[1][0] = a[1];
    m[1][1] = b[2];
    n = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) + det2((const double (*)[2])m);
    scale(c, 1.0 / n);
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
}
