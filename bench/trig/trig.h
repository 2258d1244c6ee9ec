/* Dense trigonometric residual (Moré, Garbow and Hillstrom's trigonometric function):
 * f_i = n - sum_j cos x_j + (i + 1)(1 - cos x_i) - sin x_i, i = 0 .. n-1. Every f_i depends
 * on every x_j: its Jacobian is dense. */
#ifndef TRIG_H
#define TRIG_H

void trig_residual(int n, const double *restrict x, double *restrict f);

/* The Jacobian by hand, row-major: jac[i * n + j] = d f_i / d x_j; f as trig_residual. */
void trig_hand_jacobian(int n, const double *restrict x, double *restrict f,
                        double *restrict jac);

#endif
