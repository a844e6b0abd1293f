#ifndef NANASHI_C_SEARCH_MEMORY_H
#define NANASHI_C_SEARCH_MEMORY_H

#include <stddef.h>

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

#endif
