#include "CNetwork.h"

#if defined(__x86_64__) && defined(__linux__)
#define NANASHI_CLONES __attribute__((target_clones("avx512bw", "avx2", "default")))
#else
#define NANASHI_CLONES
#endif

/// Values worked on at a time: eight AVX2 registers or four AVX-512 ones, held across all the rows.
enum { chunk = 128 };

NANASHI_CLONES
void nanashi_accumulate(
    int16_t *out, const int16_t *base, const int16_t *const *adds, int addCount,
    const int16_t *const *subtracts, int subtractCount, int size) {
    for (int start = 0; start < size; start += chunk) {
        int16_t sum[chunk];
        for (int i = 0; i < chunk; i++) sum[i] = base[start + i];
        for (int row = 0; row < addCount; row++) {
            const int16_t *values = adds[row] + start;
            for (int i = 0; i < chunk; i++) sum[i] = (int16_t)(sum[i] + values[i]);
        }
        for (int row = 0; row < subtractCount; row++) {
            const int16_t *values = subtracts[row] + start;
            for (int i = 0; i < chunk; i++) sum[i] = (int16_t)(sum[i] - values[i]);
        }
        for (int i = 0; i < chunk; i++) out[start + i] = sum[i];
    }
}

static inline int16_t clip(int16_t value, int16_t one) {
    return value < 0 ? 0 : (value > one ? one : value);
}

NANASHI_CLONES
int64_t nanashi_screlu_output(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size) {
    // Each of the 16 partial sums adds at most size / 8 products under 2^23: no overflow.
    int32_t partial[16] = {0};
    for (int start = 0; start < size; start += 16) {
        for (int i = 0; i < 16; i++) {
            int16_t a = clip(own[start + i], one);
            int16_t b = clip(other[start + i], one);
            int16_t aw = (int16_t)(a * weights[start + i]);
            int16_t bw = (int16_t)(b * weights[size + start + i]);
            partial[i] += (int32_t)a * aw + (int32_t)b * bw;
        }
    }
    int64_t total = 0;
    for (int i = 0; i < 16; i++) total += partial[i];
    return total;
}
