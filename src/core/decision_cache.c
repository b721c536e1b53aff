/* The context's cache of SGEMM choices (decision_cache.h). */
#include "decision_cache.h"

#include <stdlib.h>
#include <string.h>

gk_decision_cache *gk_decision_cache_create(void)
{
    gk_decision_cache *cache = calloc(1, sizeof *cache);
    if (cache && pthread_mutex_init(&cache->lock, NULL) != 0) {
        free(cache);
        return NULL;
    }
    return cache;
}

void gk_decision_cache_destroy(gk_decision_cache *cache)
{
    if (!cache) return;
    pthread_mutex_destroy(&cache->lock);
    free(cache);
}

static unsigned slot_of(const gk_decision_key *key)
{
    uint64_t h = 1469598103934665603ull;
    const int64_t words[] = {key->m, key->n, key->k,
                             key->trans_a | key->trans_b << 1 | key->beta_nonzero << 2 | (int64_t)key->math << 3 |
                                 (int64_t)key->storage << 6};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) h = (h ^ (uint64_t)words[i]) * 1099511628211ull;
    return (unsigned)(h >> 32) % GK_DECISION_SLOTS;
}

static int same(const gk_decision_key *a, const gk_decision_key *b)
{
    return a->m == b->m && a->n == b->n && a->k == b->k && a->trans_a == b->trans_a && a->trans_b == b->trans_b &&
           a->beta_nonzero == b->beta_nonzero && a->math == b->math &&
           a->storage == b->storage;
}

int gk_decision_lookup(gk_decision_cache *cache, const gk_decision_key *key, gk_sgemm_choice *choice)
{
    if (!cache) return 0;
    gk_decision_slot *slot = &cache->slots[slot_of(key)];
    pthread_mutex_lock(&cache->lock);
    const int hit = slot->used && same(&slot->key, key);
    if (hit) *choice = slot->choice;
    hit ? cache->hits++ : cache->misses++;
    pthread_mutex_unlock(&cache->lock);
    return hit;
}

void gk_decision_store(gk_decision_cache *cache, const gk_decision_key *key, const gk_sgemm_choice *choice)
{
    if (!cache || !choice->def) return;
    gk_decision_slot *slot = &cache->slots[slot_of(key)];
    pthread_mutex_lock(&cache->lock);
    slot->used = 1, slot->key = *key, slot->choice = *choice;
    pthread_mutex_unlock(&cache->lock);
}
