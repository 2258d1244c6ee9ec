#ifndef ADGEN_OMP_H
#define ADGEN_OMP_H
/* The OpenMP runtime routines adgen knows (docs/openmp.md): none carries derivatives. The
   output includes the real <omp.h> of the compiler; the lock types are declared here as
   names of their own, their layout the real header's. */
typedef struct adgen_omp_lock { void *opaque; } omp_lock_t;
typedef struct adgen_omp_nest_lock { void *opaque; } omp_nest_lock_t;

int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
int omp_get_thread_limit(void);
int omp_in_parallel(void);
int omp_get_level(void);
int omp_get_active_level(void);
int omp_get_team_size(int level);
int omp_get_ancestor_thread_num(int level);
int omp_get_dynamic(void);
void omp_set_num_threads(int num_threads);
void omp_set_dynamic(int dynamic_threads);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_init_lock(omp_lock_t *lock);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);
#endif
