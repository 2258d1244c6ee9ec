/* Loss of a stacked LSTM language model over a sequence, in the style of the ADBench LSTM
 * objective (written for this project): diagonal-weight cells, each step predicts the next
 * entry of the sequence, the loss is the mean cross-entropy against a log-softmax.
 *
 * l layers, hidden size b (= the size of an entry of the sequence), c steps.
 *   main_params[2*l*4*b]  per layer: weight[4*b] then bias[4*b], each holding four blocks of
 *                         b: forget gate, input gate, output gate, candidate;
 *   extra_params[3*b]     input weight, output weight, output bias;
 *   state[2*l*b]          per layer: hidden[b] then cell[b].  In/out: it carries the
 *                         recurrence and is left at the final state, but is neither an
 *                         independent nor a dependent; it is walked through pointers into it;
 *   sequence[c*b]         the input sequence;
 *   loss[0]               output.
 */
#include <math.h>
#include <stdlib.h>

#include "lstm.h"

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

/* log(sum(exp(vect))), shifted by the maximum for stability */
static double logsumexp(const double *vect, int sz)
{
    double mx = vect[0];
    double sum = 0.0;
    int i;
    for (i = 1; i < sz; i++)
        if (vect[i] > mx)
            mx = vect[i];
    for (i = 0; i < sz; i++)
        sum += exp(vect[i] - mx);
    return log(sum) + mx;
}

/* One LSTM cell: updates hidden and cell in place from input. */
static void lstm_model(int hsize, const double *weight, const double *bias, double *hidden,
                       double *cell, const double *input)
{
    double *gates = malloc(4 * (size_t)hsize * sizeof(double));
    double *forget = &gates[0];
    double *ingate = &gates[hsize];
    double *outgate = &gates[2 * hsize];
    double *change = &gates[3 * hsize];
    int i;

    for (i = 0; i < hsize; i++) {
        forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
        ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
        outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
        change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
    }
    for (i = 0; i < hsize; i++)
        cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
    for (i = 0; i < hsize; i++)
        hidden[i] = outgate[i] * tanh(cell[i]);

    free(gates);
}

/* Runs the input x through the l layers; x2 receives the prediction. */
static void lstm_predict(int l, int b, const double *w, const double *w2, double *s,
                         const double *x, double *x2)
{
    const double *xp;
    int i;

    for (i = 0; i < b; i++)
        x2[i] = x[i] * w2[i];

    xp = x2;
    for (i = 0; i <= 2 * l * b - 1; i += 2 * b) {
        double *hidden = &s[i];          /* aliases into the state buffer */
        double *cell = &s[i + b];
        lstm_model(b, &w[i * 4], &w[(i + b) * 4], hidden, cell, xp);
        xp = hidden;
    }

    for (i = 0; i < b; i++)
        x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

void lstm_objective(int l, int c, int b, const double *main_params,
                    const double *extra_params, double *state, const double *sequence,
                    double *loss)
{
    double total = 0.0;
    int count = 0;
    const double *input = &sequence[0];
    double *ypred = malloc((size_t)b * sizeof(double));
    double *ynorm = malloc((size_t)b * sizeof(double));
    const double *ygold;
    double lse;
    int i, t;

    for (t = 0; t <= (c - 1) * b - 1; t += b) {
        lstm_predict(l, b, main_params, extra_params, state, input, ypred);
        lse = logsumexp(ypred, b);
        for (i = 0; i < b; i++)
            ynorm[i] = ypred[i] - lse;

        ygold = &sequence[t + b];
        for (i = 0; i < b; i++)
            total += ygold[i] * ynorm[i];

        count += b;
        input = ygold;
    }

    *loss = -total / count;

    free(ypred);
    free(ynorm);
}
