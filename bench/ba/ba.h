/* Bundle-adjustment reprojection error (benchmark model; see ba.c). */
#ifndef BENCH_BA_H
#define BENCH_BA_H

#define BA_CAM_PARAMS 11

/* Pixel coordinates proj[0..1] of world point x in camera cam. */
void ba_project(const double *cam, const double *x, double *proj);

void ba_objective(int n_cams, int n_pts, int n_obs, const double *cams, const double *pts,
                  const int *obs_cam, const int *obs_pt, const double *feats, double *err);

#endif
