/* adgen-test
head: f(y)/(x)
arg x: double[3] = uniform(0.2, 1.5)
arg y: double[1]
*/
/* Initializer lists without the inner braces (C's brace elision): `{0}` for a struct whose
 * first field is an array, a 2-D array set row after row from a flat list, structs of
 * arrays of structs given partly braced, a struct variable given whole among them, and
 * arrays of unknown size whose length counts the elided elements. (adgen assigned the
 * first item to the whole first field: C that did not compile.) Valid C that gcc's -Wall
 * and -Wextra would rather see braced and complete. */
#pragma GCC diagnostic ignored "-Wmissing-braces"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
struct s1 { double t[6]; double a; };
struct pt { double x, y; };
struct s2 { struct pt p[2]; double w; };
static const double tab[][2] = {1.0, 2.0, 3.0, 4.0, 5.0};
static const struct pt corners[] = {0.5, 1.0, 2.0};
void f(const double *x, double *y)
{
    struct s1 u = {0};
    struct s1 v = {x[0], x[1], 2.0, 3.0, 4.0, 5.0, x[2]};
    double m[2][3] = {x[0], x[1], x[2], 4.0};
    struct pt q = {x[1], x[2]};
    struct s2 r = {q, {x[0], 1.0}, x[2]};
    struct s2 z = {1.0, x[0], x[1]};
    struct pt arr[] = {q, x[0], x[1], {3.0}};
    double nn[] = {1.0, 2.0, x[0]};
    static const double wts[][2] = {0.1, 0.2, 0.3};
    y[0] = u.t[3] + u.a + v.t[1] * v.a + m[0][2] * m[1][0] + m[1][2] + r.p[0].y * r.p[1].x + r.w
         + z.p[0].x * z.p[0].y + z.p[1].x + sizeof(arr) / sizeof(arr[0]) * arr[1].y + arr[2].x
         + tab[2][0] * (sizeof(tab) / sizeof(tab[0])) + nn[2] * (sizeof(nn) / sizeof(nn[0]))
         + corners[1].x * corners[1].y * x[1] + wts[1][0] * wts[1][1] * x[2];
}
