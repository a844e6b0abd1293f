#ifndef NANASHI_C_SEARCH_MEMORY_H
#define NANASHI_C_SEARCH_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "MoveOrder.h"

/// Asks the processor to start loading the cache line at `address`, so that a later read of it
/// (a transposition-table probe) does not wait for main memory.
static inline void nanashi_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Zero-filled memory of `bytes` bytes, aligned to 2 MB and, where the system allows it, backed by
/// huge pages, so that random probes into a large table miss the address-translation cache less.
/// Returns NULL when the memory is not available. Free it with `nanashi_free_table`.
void *nanashi_allocate_table(size_t bytes);

/// Frees memory from `nanashi_allocate_table`.
void nanashi_free_table(void *table);

/// Reads a table word that other search threads may be writing: whole, never torn, with no
/// ordering (a plain load on x86-64 and ARM64).
static inline uint64_t nanashi_load_word(const uint64_t *word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }

/// Writes a table word that other search threads may be reading: whole, with no ordering.
static inline void nanashi_store_word(uint64_t *word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

#endif
