/* adgen-test
head: apply(apply)/(x)
arg x: double[4]
expect-error: parameter 'ws' of 'apply': the memory its field 'v' points to carries derivatives
expect-error-line: 18
*/
/* Must be refused: a workspace struct whose buffer carries derivatives inside the head but
 * is neither independent nor dependent. The derivative routine would need adjoint storage
 * for the buffer, whose size only the code that made the workspace knows; a zeroed shadow
 * struct would hold a null pointer. */
#include <stdlib.h>

typedef struct {
    int n;
    double *v;
} Workspace;

double apply(const Workspace *ws, const double *x)
{
    double s = 0.0;
    int i;
    for (i = 0; i < ws->n; i++)
        ws->v[i] = x[i] * x[i];
    for (i = 0; i < ws->n; i++)
        s = s + ws->v[i] * x[i];
    return s;
}
