/* adgen-test
head: scale_state(y)/(x)
arg x: double[1]
arg y: double[1]
expect-error: global 'state' holds a pointer to active data
expect-error-line: 13
*/
/* Must be refused: the derivatives would live behind the pointer field of a global
 * struct, and the struct's shadow has no memory for them (it used to be generated with
 * a null pointer there), although the head sets the pointer itself. */
struct buffer { double *data; int n; };

struct buffer state;
static double cells[3] = {1.0, 2.0, 3.0};

void scale_state(const double *x, double *y)
{
    int i;
    state.data = cells;
    state.n = 3;
    for (i = 0; i < state.n; i++)
        state.data[i] = state.data[i] * x[0];
    y[0] = 0.0;
    for (i = 0; i < state.n; i++)
        y[0] = y[0] + state.data[i] * state.data[i];
}
