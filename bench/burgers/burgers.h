/* 1-D viscous Burgers misfit (benchmark model; see burgers.c). */
#ifndef BENCH_BURGERS_H
#define BENCH_BURGERS_H

/* The unit of the viscosities nu_face (burgers.F90 has its own copy). */
#define NU_REF 0.01

void burgers_objective(int n, int nsteps, const double *u0, const double *nu_face,
                       const double *u_obs, double dt, double dx, double *u, double *u_next,
                       double *misfit);

#endif
