#ifndef ADGEN_CBLAS_H
#define ADGEN_CBLAS_H
/* The level-1 kernels adgen has derivative rules for (user_rules.BUILTIN_RULES); the
   program links the BLAS library that defines them. */
double cblas_ddot(const int N, const double *X, const int incX, const double *Y,
                  const int incY);
double cblas_dnrm2(const int N, const double *X, const int incX);
void cblas_daxpy(const int N, const double alpha, const double *X, const int incX,
                 double *Y, const int incY);
void cblas_dscal(const int N, const double alpha, double *X, const int incX);
void cblas_dcopy(const int N, const double *X, const int incX, double *Y, const int incY);
float cblas_sdot(const int N, const float *X, const int incX, const float *Y,
                 const int incY);
float cblas_snrm2(const int N, const float *X, const int incX);
void cblas_saxpy(const int N, const float alpha, const float *X, const int incX,
                 float *Y, const int incY);
void cblas_sscal(const int N, const float alpha, float *X, const int incX);
void cblas_scopy(const int N, const float *X, const int incX, float *Y, const int incY);
#endif
