#include "CSearchMemory.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

void *nanashi_allocate_table(size_t bytes) {
    const size_t alignment = (size_t)2 << 20;
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void *table = NULL;
    if (posix_memalign(&table, alignment, rounded) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(table, rounded, MADV_HUGEPAGE);
#endif
    memset(table, 0, rounded);
    return table;
}

void nanashi_free_table(void *table) { free(table); }
