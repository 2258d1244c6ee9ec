/* adgen-test
head: lstm_objective(loss)/(main_params extra_params)
arg l: int = 2
arg c: int = 5
arg b: int = 4
arg main_params: double[2*l*4*b] = uniform(-0.8, 0.8)
arg extra_params: double[3*b] = uniform(-0.8, 0.8)
arg state: double[2*l*b] = uniform(-0.5, 0.5)
arg sequence: double[c*b] = uniform(0, 1)
arg loss: double[1]
*/
/* A small stacked LSTM language-model loss (diagonal-weight cells, in the style of the
 * ADBench LSTM, written for this project).  The state buffer (hidden and cell vectors of
 * every layer, interleaved) is in/out but neither independent nor dependent: it is walked
 * with pointer aliases into it.  Each step predicts the next entry of the sequence;
 * the loss is the mean cross-entropy against a softmax. */
#include <math.h>
#include <stdlib.h>

static double sigmoid(double v)
{
    return 1.0 / (1.0 + exp(-v));
}

static double logsumexp(int n, const double *v)
{
    double mx = v[0], s = 0.0;
    int i;
    for (i = 1; i < n; i++)
        if (v[i] > mx)
            mx = v[i];
    for (i = 0; i < n; i++)
        s += exp(v[i] - mx);
    return log(s) + mx;
}

/* weight and bias each hold 4 blocks of b: forget, input, output gates and candidate */
static void lstm_cell(int b, const double *weight, const double *bias,
                      double *hidden, double *cell, const double *input)
{
    int i;
    for (i = 0; i < b; i++) {
        double forget = sigmoid(input[i] * weight[i] + bias[i]);
        double ingate = sigmoid(hidden[i] * weight[b + i] + bias[b + i]);
        double outgate = sigmoid(input[i] * weight[2 * b + i] + bias[2 * b + i]);
        double change = tanh(hidden[i] * weight[3 * b + i] + bias[3 * b + i]);
        cell[i] = cell[i] * forget + ingate * change;
        hidden[i] = outgate * tanh(cell[i]);
    }
}

static void lstm_predict(int l, int b, const double *w, const double *w2, double *s,
                         const double *x, double *x2)
{
    const double *in = x2;
    int i, layer;
    for (i = 0; i < b; i++)
        x2[i] = x[i] * w2[i];
    for (layer = 0; layer < l; layer++) {
        double *hidden = s + 2 * layer * b;      /* aliases into the state buffer */
        double *cell = hidden + b;
        lstm_cell(b, &w[layer * 8 * b], &w[layer * 8 * b + 4 * b], hidden, cell, in);
        in = hidden;
    }
    for (i = 0; i < b; i++)
        x2[i] = in[i] * w2[b + i] + w2[2 * b + i];
}

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    double *state, const double *sequence, double *loss)
{
    double *ypred = malloc((size_t)b * sizeof(double));
    double total = 0.0;
    int t, i, count = 0;
    for (t = 0; t < c - 1; t++) {
        const double *cur = &sequence[t * b];
        const double *next = cur + b;
        double lse;
        lstm_predict(l, b, main_params, extra_params, state, cur, ypred);
        lse = logsumexp(b, ypred);
        for (i = 0; i < b; i++)
            total += next[i] * (ypred[i] - lse);
        count += b;
    }
    loss[0] = -total / count;
    free(ypred);
}
