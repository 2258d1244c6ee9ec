/* adgen-test
head: f(f)/(x)
arg x: double[3] = {0.4, -1.1, 0.8}
*/
/* memcpy and memmove of structs holding numbers: one struct by address (`memcpy(&t, &s,
 * sizeof t)`), an array of structs, and an overlapping move within one; each is a copy
 * field by field, as an assignment of the struct is, so the derivatives of the fields
 * follow their values. */
#include <string.h>
typedef struct { double a[3]; double b; int n; } S;
double f(const double *x)
{
    S s, t, arr[3], brr[3];
    int i;
    memset(&s, 0, sizeof s);
    s.a[1] = x[0] * x[1];
    s.b = x[1];
    s.n = 2;
    memcpy(&t, &s, sizeof t);
    for (i = 0; i < 3; i++) {
        arr[i] = s;
        arr[i].b = x[i] * (i + 1);
    }
    memcpy(brr, arr, 3 * sizeof arr[0]);
    memmove(&brr[0], &brr[1], 2 * sizeof(S));
    return t.a[1] * t.b * t.n + brr[0].b * brr[1].b + brr[2].b;
}
