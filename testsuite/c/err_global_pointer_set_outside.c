/* adgen-test
head: model(y)/(x)
arg n: int = 4
arg x: double[n]
arg y: double[1]
expect-error: the global pointer 'state' points where code outside the head made it point: 'model' reads it before setting it
expect-error-line: 11
*/
/* Must be refused: the global pointer is set by the caller (through attach) before the
 * head runs, so the derivative code cannot know where its derivatives live. */
static double *state;

void attach(double *s)
{
    state = s;
}

void model(int n, const double *x, double *y)
{
    int i;
    for (i = 0; i < n; i++)
        state[i] = state[i] * x[i];
    y[0] = 0.0;
    for (i = 0; i < n; i++)
        y[0] = y[0] + state[i] * state[i];
}
