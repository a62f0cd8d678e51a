/* What a cuSOLVER factorization in progress (cuda_solver.h's job) takes and
 * checks, for the single and the batched calls alike (cuda_solver.c,
 * cuda_solver_batched.c): routine names, statuses worded, stream-ordered
 * temporaries and workspaces, and the factorization statuses read back. */
#include <stdlib.h>

#include "backends/cuda/cuda_solver.h"

const char *
ua_cusolver_name(const ua_cusolver_job *j, ua_cusolver_routine r)
{
    return j->lib->names[j->t][r];
}

ua_status
ua_cusolver_called(int status, const char *routine)
{
    if (status == 0) {
        return UA_OK;
    }
    return ua_error_set(UA_ERR_RUNTIME, "cuSOLVER %s failed (status %d)",
                        routine, status);
}

ua_status
ua_cusolver_temp(ua_cusolver_job *j, size_t bytes, void **out)
{
    *out = NULL;
    if (j->ntemps == UA_CUSOLVER_TEMPS) {
        return ua_error_set(UA_ERR_RUNTIME,
                            "a factorization took more temporaries than "
                            "cuda_solver.h allows");
    }
    CUdeviceptr d = 0;
    ua_status st = ua_cuda_scratch(j->q, bytes > 0 ? bytes : 1, &d);
    if (st == UA_OK) {
        j->temps[j->ntemps++] = d;
        *out = (void *)(uintptr_t)d;
    }
    return st;
}

ua_status
ua_cusolver_check(ua_cusolver_job *j, const int *info, size_t count,
                  const char *routine, const char *what)
{
    int *host = malloc(count * sizeof *host);
    if (host == NULL) {
        return ua_error_set(UA_ERR_NOMEM, "no memory for cuSOLVER's "
                                          "statuses");
    }
    CUresult r = ua_cu.cuMemcpyAsync((CUdeviceptr)(uintptr_t)host,
                                     (CUdeviceptr)(uintptr_t)info,
                                     count * sizeof *host, j->q->stream);
    if (r == CUDA_SUCCESS) {
        r = ua_cu.cuStreamSynchronize(j->q->stream);
    }
    ua_status st = r == CUDA_SUCCESS
                       ? UA_OK
                       : ua_cuda_failed(r, "reading cuSOLVER's statuses");
    for (size_t k = 0; st == UA_OK && k < count; k++) {
        if (host[k] < 0) {
            st = ua_error_set(UA_ERR_RUNTIME, "%s refused its argument %d",
                              routine, -host[k]);
        } else if (host[k] > 0) {
            st = ua_error_set(UA_ERR_LINALG, "matrix %zu of the batch %s", k,
                              what);
        }
    }
    free(host);
    return st;
}

ua_status
ua_cusolver_workspace(ua_cusolver_job *j, int lwork, void **out)
{
    if (lwork < 0) {
        *out = NULL;
        return ua_error_set(UA_ERR_VALUE,
                            "cuSOLVER sized its work past an int (%d): the "
                            "matrices are too large for one call",
                            lwork);
    }
    return ua_cusolver_temp(j, (size_t)(lwork > 0 ? lwork : 1) * j->s, out);
}

ua_status
ua_cusolver_statuses(ua_cusolver_job *j, int **out)
{
    void *p = NULL;
    ua_status st = ua_cusolver_temp(j, j->p->batch * sizeof(int), &p);
    *out = p;
    return st;
}
