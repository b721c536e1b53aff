/* Peers of the benchmark (cuBLAS, CLBlast, the CPU BLAS): found at run time with dlopen,
 * so gemmkit builds and runs without them; the report says which were found
 * and why the others were not. */
#define _GNU_SOURCE /* dladdr */
#include "peer.h"

#include "cli.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void *gk_peer_dlopen(const char *env, const char *const *names, char *path, size_t len, char *why)
{
    const char *override = env ? getenv(env) : NULL;
    char tried[GK_BENCH_ERR] = "";
    for (int i = -1; i < 0 || names[i]; i++) {
        const char *name = i < 0 ? override : names[i];
        if (!name || !*name) continue;
        void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle) {
            snprintf(path, len, "%s", name);
            return handle;
        }
        size_t used = strlen(tried);
        snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", name);
    }
    snprintf(why, GK_BENCH_ERR, "no library found (tried %.180s%s%.30s)", tried, env ? "; set " : "", env ? env : "");
    return NULL;
}

void gk_peer_real_path(void *symbol, char *path, size_t len)
{
    Dl_info info;
    char real[PATH_MAX];
    if (symbol && dladdr(symbol, &info) && info.dli_fname) {
        if (realpath(info.dli_fname, real)) snprintf(path, len, "%s", real);
        else snprintf(path, len, "%s", info.dli_fname);
    }
}

int gk_peer_is_nvidia(const gemmkit_device_info *device)
{
    const char *fields[] = {device->vendor, device->name, device->platform};
    if (strcmp(device->backend, "cuda") == 0) return 1;
    for (int i = 0; i < 3; i++)
        if (strstr(fields[i], "NVIDIA") || strstr(fields[i], "nvidia") || strstr(fields[i], "Nvidia")) return 1;
    return 0;
}

int gk_peer_run(gk_runner *r, const gk_routine *routine, const gk_case *c, const int *slots, gk_bench_timing *t,
                char *err)
{
    if (routine == &gk_routine_gemm && r->sgemm) return r->sgemm(r, &c->gemm, slots[0], slots[1], slots[2], t, err);
    if (routine == &gk_routine_omatcopy && r->omatcopy) return r->omatcopy(r, &c->omatcopy, slots[0], slots[1], t, err);
    if (routine == &gk_routine_gemm_batched && r->sgemm_batched)
        return r->sgemm_batched(r, &c->batched, slots[0], slots[1], slots[2], t, err);
    snprintf(err, GK_BENCH_ERR, "%s has no %s", r->name, routine->name);
    return -1;
}

int gk_runner_runs(const gk_runner *r, const gk_routine *routine)
{
    if (strcmp(r->kind, "gemmkit") == 0) return 1;
    return (routine == &gk_routine_gemm && r->sgemm) || (routine == &gk_routine_omatcopy && r->omatcopy) ||
           (routine == &gk_routine_gemm_batched && r->sgemm_batched);
}

int gk_bench_peer_wanted(const gk_bench_args *args, const char *name, int device_is_gpu)
{
    if (!args->peers) return 0;
    if (args->peer_list) return gk_cli_listed(args->peer_list, name);
    /* On a GPU the CPU BLAS is another processor: timed there only when asked for. */
    return strcmp(name, "cpublas") != 0 || !device_is_gpu;
}

void gk_bench_open_peers(gk_bench_session *s)
{
    if (!s->args->peers) return;
    typedef int (*opener)(gemmkit_context *, const gemmkit_device_info *, gk_runner **, int, gk_bench_peer_info *);
    static const struct {
        const char *name, *label;
        opener open;
    } peers[] = {{"cublas", "cuBLAS", gk_peer_cublas_open},
                 {"clblast", "CLBlast", gk_peer_clblast_open},
                 {"cpublas", "CPU BLAS", gk_peer_cpublas_open}};
    for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++) {
        if (s->args->peer_list && !gk_cli_listed(s->args->peer_list, peers[i].name)) continue;
        gk_bench_peer_info *info = &s->report.peers[s->report.peer_count++];
        memset(info, 0, sizeof *info);
        if (gk_bench_peer_wanted(s->args, peers[i].name, s->info.is_gpu)) {
            s->peer_count += peers[i].open(s->ctx, &s->info, s->peers + s->peer_count,
                                           GK_BENCH_MAX_RUNNERS - s->peer_count, info);
        } else {
            snprintf(info->name, sizeof info->name, "%s", peers[i].name);
            snprintf(info->label, sizeof info->label, "%s", peers[i].label);
            snprintf(info->detail, sizeof info->detail,
                     "the device is a GPU (--peers cublas,clblast,cpublas times the CPU BLAS too)");
        }
        gk_bench_progress(s, "peer %s: %s%s", info->label, info->found ? "found, " : "not used: ", info->detail);
    }
}

void gk_bench_close_peers(gk_bench_session *s)
{
    for (int i = 0; i < s->peer_count; i++) s->peers[i]->destroy(s->peers[i]);
    s->peer_count = 0;
}
