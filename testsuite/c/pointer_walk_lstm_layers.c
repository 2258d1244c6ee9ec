/* adgen-test
head: stacked_cells(y)/(w)
arg l: int = 3
arg b: int = 4
arg w: double[2*l*b] = uniform(-0.8, 0.8)
arg state: double[2*l*b] = uniform(-0.5, 0.5)
arg x: double[b] = uniform(0, 1)
arg y: double[b]
*/
/* LSTM-style layers: the state buffer holds, per layer, a hidden and a cell vector of b
 * numbers; `layer += 2 * b` walks it over the l layers, and each layer's input is the
 * hidden vector of the layer before (`in = layer`), read once more after the loop. The
 * state carries derivatives but is neither independent nor dependent, so it needs
 * adjoint storage of its own: adgen must find its length, 2*b*l, from the walk (through
 * the helper it is passed to). */
#include <math.h>

static void cell(int b, const double *w, double *hidden, double *c, const double *in)
{
    int i;
    for (i = 0; i < b; i++) {
        c[i] = c[i] * tanh(w[i]) + in[i];
        hidden[i] = tanh(w[b + i] * c[i]);
    }
}

void stacked_cells(int l, int b, const double *w, double *state, const double *x, double *y)
{
    double *layer = state;
    const double *in = x;
    const double *wl = w;
    int k, i;
    for (k = 0; k < l; k++) {
        cell(b, wl, layer, layer + b, in);
        in = layer;
        layer += 2 * b;
        wl += 2 * b;
    }
    for (i = 0; i < b; i++)
        y[i] = in[i] * in[i];
}
