#include "MoveOrder.h"

#if defined(__x86_64__) && defined(__linux__)
#include <immintrin.h>

/// The lanes of a 16-lane block that hold scores, when `left` of them are left.
__attribute__((target("avx512f"), always_inline)) static inline __mmask16 lanes_left(int left) {
    return left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
}

/// Two passes of 16 lanes: the highest score, then the first lane that holds it.
__attribute__((target("avx512f"))) static int best_index_avx512(
    const int32_t *scores, int from, int count) {
    const __m512i lowest = _mm512_set1_epi32(INT32_MIN);
    __m512i highest = lowest;
    for (int start = from; start < count; start += 16) {
        __m512i block = _mm512_mask_loadu_epi32(lowest, lanes_left(count - start), scores + start);
        highest = _mm512_max_epi32(highest, block);
    }
    const __m512i top = _mm512_set1_epi32(_mm512_reduce_max_epi32(highest));
    for (int start = from; start < count; start += 16) {
        __mmask16 lanes = lanes_left(count - start);
        __m512i block = _mm512_maskz_loadu_epi32(lanes, scores + start);
        __mmask16 equal = _mm512_mask_cmpeq_epi32_mask(lanes, block, top);
        if (equal != 0) return start + __builtin_ctz(equal);
    }
    return from;
}
#endif

static int best_index_plain(const int32_t *scores, int from, int count) {
    int best = from;
    for (int index = from + 1; index < count; index++) {
        if (scores[index] > scores[best]) best = index;
    }
    return best;
}

#if defined(__x86_64__) && defined(__linux__)
typedef int (*BestIndex)(const int32_t *, int, int);

/// Chooses the processor's own version when the program is loaded.
static BestIndex resolve_best_index(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return best_index_avx512;
    return best_index_plain;
}

int nanashi_best_index(const int32_t *scores, int from, int count)
    __attribute__((ifunc("resolve_best_index")));
#else
int nanashi_best_index(const int32_t *scores, int from, int count) {
    return best_index_plain(scores, from, count);
}
#endif
