/* xgemm's tile parameters and constraints, shared by the rows that build
 * xgemm.cl or xgemm_direct.cl (registry_library.c, registry_batched.c). */
#ifndef GK_REGISTRY_XGEMM_H
#define GK_REGISTRY_XGEMM_H

/* The tile parameters with the given defaults, and with xgemm's. */
#define XGEMM_TILE_PARAMS_AT(tsm, tsn, tsk, wptm, wptn)                                                               \
    {"TSM", tsm, "32,64,128,256", "C tile rows per work-group"},                                                     \
        {"TSN", tsn, "32,64,128,256", "C tile columns per work-group"}, {"TSK", tsk, "4,8,16,32", "K step per tile"},\
        {"WPTM", wptm, "4,8,16", "C rows per work-item (multiple of 4)"},                                            \
        {"WPTN", wptn, "4,8,16", "C columns per work-item (multiple of 4)"}
#define XGEMM_TILE_PARAMS XGEMM_TILE_PARAMS_AT(128, 128, 8, 8, 8)
#define XGEMM_CONSTRAINTS                                                                                             \
    "WPTM % 4 == 0 && WPTN % 4 == 0", "TSM % WPTM == 0 && TSN % WPTN == 0",                                          \
        "(TSK * TSM / 4) % ((TSM / WPTM) * (TSN / WPTN)) == 0", "(TSK * TSN / 4) % ((TSM / WPTM) * (TSN / WPTN)) == 0", \
        "(TSK * TSM / 4) >= (TSM / WPTM) * (TSN / WPTN)", "(TSK * TSN / 4) >= (TSM / WPTM) * (TSN / WPTN)"

/* xgemm.cl's work-group order and tile pipeline (xgemm and its split-K build). */
#define XGEMM_ORDER_PARAMS                                                                                            \
    {"SWIZZLE", 1, "1,8", "tile rows per band of the work-group order (1: plain)"},                                  \
        {"ASYNC_STAGES", 0, "0,3,4",                                                                                  \
         "local tiles in a ring filled by cp.async (NVIDIA sm_80+; plain copies elsewhere); 0: two, through registers"}
#define XGEMM_ORDER_CONSTRAINTS                                                                                       \
    "SWIZZLE >= 1 && SWIZZLE <= 64", "ASYNC_STAGES == 0 || (ASYNC_STAGES >= 2 && ASYNC_STAGES <= 4)"

#endif
