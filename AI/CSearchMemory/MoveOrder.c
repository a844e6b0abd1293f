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

/// The same in 8-lane blocks: the lanes past `count` take no part (loaded as zeros, then left
/// out of the maximum and of the comparison).
__attribute__((target("avx2"))) static int best_index_avx2(
    const int32_t *scores, int from, int count) {
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i lowest = _mm256_set1_epi32(INT32_MIN);
    __m256i highest = lowest;
    for (int start = from; start < count; start += 8) {
        __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(count - start), lanes);
        __m256i block = _mm256_maskload_epi32(scores + start, valid);
        highest = _mm256_max_epi32(highest, _mm256_blendv_epi8(lowest, block, valid));
    }
    __m128i half = _mm_max_epi32(
        _mm256_castsi256_si128(highest), _mm256_extracti128_si256(highest, 1));
    half = _mm_max_epi32(half, _mm_shuffle_epi32(half, 0x4E));
    half = _mm_max_epi32(half, _mm_shuffle_epi32(half, 0xB1));
    const __m256i top = _mm256_broadcastd_epi32(half);
    for (int start = from; start < count; start += 8) {
        __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(count - start), lanes);
        __m256i block = _mm256_maskload_epi32(scores + start, valid);
        __m256i equal = _mm256_and_si256(_mm256_cmpeq_epi32(block, top), valid);
        int mask = _mm256_movemask_ps(_mm256_castsi256_ps(equal));
        if (mask != 0) return start + __builtin_ctz((unsigned)mask);
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
    if (__builtin_cpu_supports("avx2")) return best_index_avx2;
    return best_index_plain;
}

int nanashi_best_index(const int32_t *scores, int from, int count)
    __attribute__((ifunc("resolve_best_index")));
#else
int nanashi_best_index(const int32_t *scores, int from, int count) {
    return best_index_plain(scores, from, count);
}
#endif
