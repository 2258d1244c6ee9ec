typedef struct {
    int n;
    double *s;
} Model;

double run(Model *m, const double *q);
void run_b(Model *m, const double *q, double *qb, double runb);
double run_d(Model *m, const double *q, const double *qd, double *run);
