#ifndef ADGEN_CBLAS_H
#define ADGEN_CBLAS_H
/* The kernels adgen has derivative rules for (rules.BUILTIN_RULES): level 1, and the
   matrix-vector and matrix-matrix products gemv and gemm; the program links the BLAS
   library that defines them. */
enum CBLAS_ORDER { CblasRowMajor = 101, CblasColMajor = 102 };
enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 };
typedef enum CBLAS_ORDER CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE CBLAS_TRANSPOSE;
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
void cblas_dgemv(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const int M,
                 const int N, const double alpha, const double *A, const int lda,
                 const double *X, const int incX, const double beta, double *Y,
                 const int incY);
void cblas_dgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                 const double alpha, const double *A, const int lda, const double *B,
                 const int ldb, const double beta, double *C, const int ldc);
void cblas_sgemv(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA, const int M,
                 const int N, const float alpha, const float *A, const int lda,
                 const float *X, const int incX, const float beta, float *Y,
                 const int incY);
void cblas_sgemm(const enum CBLAS_ORDER Order, const enum CBLAS_TRANSPOSE TransA,
                 const enum CBLAS_TRANSPOSE TransB, const int M, const int N, const int K,
                 const float alpha, const float *A, const int lda, const float *B,
                 const int ldb, const float beta, float *C, const int ldc);
#endif
