/* The SGEMM choices a context has made, by call signature: real programs repeat a few shapes, and a choice is a
 * pure function of the signature and the context's constants (its tuning lines, fixed at creation), so each is
 * made once (dispatch.c). */
#ifndef GK_DECISION_CACHE_H
#define GK_DECISION_CACHE_H

#include <pthread.h>
#include <stdint.h>

#include "sgemm.h"

#define GK_DECISION_SLOTS 64

/* What a default choice depends on besides the context. */
typedef struct gk_decision_key {
    int64_t m, n, k;
    int trans_a, trans_b, beta_nonzero, math; /* math: the call's mode, + GK_MATH_COUNT where pinned (math_mode.h) */
    unsigned storage; /* gk_sgemm_storage: the copies a packing plan can skip, C's float4 columns */
} gk_decision_key;

typedef struct gk_decision_slot {
    int used;
    gk_decision_key key;
    gk_sgemm_choice choice;
} gk_decision_slot;

/* Direct-mapped by the key's hash; a new signature replaces the slot's old one. Its own lock: the choice may be
 * asked for outside a call (tools) as well as inside one (ctx->lock held). */
typedef struct gk_decision_cache {
    pthread_mutex_t lock;
    uint64_t hits, misses;
    gk_decision_slot slots[GK_DECISION_SLOTS];
} gk_decision_cache;

gk_decision_cache *gk_decision_cache_create(void);
void gk_decision_cache_destroy(gk_decision_cache *cache);
/* 1 and *choice when the cache holds key's choice. */
int gk_decision_lookup(gk_decision_cache *cache, const gk_decision_key *key, gk_sgemm_choice *choice);
void gk_decision_store(gk_decision_cache *cache, const gk_decision_key *key, const gk_sgemm_choice *choice);

#endif
