/* LSTM objective (benchmark model; see lstm.c). */
#ifndef BENCH_LSTM_H
#define BENCH_LSTM_H

void lstm_objective(int l, int c, int b, const double *main_params,
                    const double *extra_params, double *state, const double *sequence,
                    double *loss);

#endif
