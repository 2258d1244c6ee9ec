/* Bundle adjustment: the sum of squared reprojection errors of n_pts 3-D points seen by
 * n_cams cameras in n_obs observations, the objective a Levenberg-Marquardt or
 * gradient-based solver minimises over cameras and points.
 *
 * A camera is BA_CAM_PARAMS doubles: rotation as an angle-axis vector (3), centre (3),
 * focal length (1), principal point (2) and radial distortion coefficients k1, k2 (2).
 * Observation i is point obs_pt[i] seen by camera obs_cam[i] at pixel feats[2i..2i+1]. */
#include <math.h>
#include "ba.h"

/* Rotates x by the angle-axis vector w (Rodrigues' formula).  Near the identity the exact
 * formula divides by |w|, so the first-order form x + w × x is used below a tiny angle. */
static void rodrigues_rotate(const double *w, const double *x, double *rx)
{
    double theta2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    if (theta2 > 1e-20) {
        double theta = sqrt(theta2), c = cos(theta), s = sin(theta);
        double k0 = w[0] / theta, k1 = w[1] / theta, k2 = w[2] / theta;
        double k_dot_x = k0 * x[0] + k1 * x[1] + k2 * x[2];
        double t = k_dot_x * (1.0 - c);
        rx[0] = x[0] * c + (k1 * x[2] - k2 * x[1]) * s + k0 * t;
        rx[1] = x[1] * c + (k2 * x[0] - k0 * x[2]) * s + k1 * t;
        rx[2] = x[2] * c + (k0 * x[1] - k1 * x[0]) * s + k2 * t;
    } else {
        rx[0] = x[0] + w[1] * x[2] - w[2] * x[1];
        rx[1] = x[1] + w[2] * x[0] - w[0] * x[2];
        rx[2] = x[2] + w[0] * x[1] - w[1] * x[0];
    }
}

/* Pixel coordinates of world point x in camera cam. */
void ba_project(const double *cam, const double *x, double *proj)
{
    const double *rotation = &cam[0], *centre = &cam[3], *principal = &cam[7];
    const double *radial = &cam[9];
    double focal = cam[6];
    double rel[3], xc[3], px, py, r2, distortion;
    int j;
    for (j = 0; j < 3; j++)
        rel[j] = x[j] - centre[j];
    rodrigues_rotate(rotation, rel, xc);
    px = xc[0] / xc[2];
    py = xc[1] / xc[2];
    r2 = px * px + py * py;
    distortion = 1.0 + radial[0] * r2 + radial[1] * r2 * r2;
    proj[0] = focal * distortion * px + principal[0];
    proj[1] = focal * distortion * py + principal[1];
}

void ba_objective(int n_cams, int n_pts, int n_obs, const double *cams, const double *pts,
                  const int *obs_cam, const int *obs_pt, const double *feats, double *err)
{
#pragma adgen size(cams, BA_CAM_PARAMS * n_cams)
#pragma adgen size(pts, 3 * n_pts)
    double sum = 0.0;
    int i;
    /* each observation's residual goes to locals of its own and into one sum: adgen's
     * adjoint may reverse the observations one at a time (docs/directives.md) */
#pragma adgen independent
    for (i = 0; i < n_obs; i++) {
        double proj[2], ex, ey;
        ba_project(&cams[BA_CAM_PARAMS * obs_cam[i]], &pts[3 * obs_pt[i]], proj);
        ex = proj[0] - feats[2 * i];
        ey = proj[1] - feats[2 * i + 1];
        sum += ex * ex + ey * ey;
    }
    *err = sum;
}
