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

/* The ASYNC_STAGES ring of xgemm.cl and xgemm_direct.cl (library/async_copy.h), with the tuner's choices. */
#define XGEMM_ASYNC_PARAM(choices)                                                                                    \
    {"ASYNC_STAGES", 0, choices,                                                                                      \
     "local tiles in a ring filled by cp.async (NVIDIA sm_80+; plain copies elsewhere); 0: two, through registers"}
#define XGEMM_ASYNC_CONSTRAINT "ASYNC_STAGES == 0 || (ASYNC_STAGES >= 2 && ASYNC_STAGES <= 4)"

/* xgemm.cl's work-group order and tile pipeline (xgemm and its split-K build). */
#define XGEMM_ORDER_PARAMS                                                                                            \
    {"SWIZZLE", 1, "1,8", "tile rows per band of the work-group order (1: plain)"}, XGEMM_ASYNC_PARAM("0,3,4")
#define XGEMM_ORDER_CONSTRAINTS "SWIZZLE >= 1 && SWIZZLE <= 64", XGEMM_ASYNC_CONSTRAINT

/* xgemm_direct.cl's rows (xgemm-direct, -splitk, -batched): its ring, whose two stages are worth timing here
 * too, and its local memory exactly: max(2, ASYNC_STAGES) tiles of each operand, TSK rows of TSM/4 + 1 and
 * TSN/4 + 1 float4 (a float4 of padding per row). */
#define XGEMM_DIRECT_ASYNC_PARAM XGEMM_ASYNC_PARAM("0,2,3,4")
#define XGEMM_DIRECT_LOCAL_MEM "max(2, ASYNC_STAGES) * TSK * (TSM + TSN + 8) * 4"

#endif
