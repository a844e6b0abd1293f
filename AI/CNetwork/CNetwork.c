#include "CNetwork.h"

#if defined(__x86_64__) && defined(__linux__)
#define NANASHI_CLONES __attribute__((target_clones("avx512bw", "avx2", "default")))
#else
#define NANASHI_CLONES
#endif

/// Values of one perspective's hidden layer.
enum { hidden = 256, windowStates = 256 };

/// The base-4 digits of a window's four squares in `bits`, whose lower left square is `corner`:
/// 1, 4, 16 and 64 for the lower left, lower right, upper left and upper right squares set.
static inline int window_digits(uint64_t bits, int corner) {
    uint64_t shifted = bits >> corner;
    return (int)((shifted & 1) | (shifted & 2) << 1 | (shifted & 0x80) >> 3 | (shifted & 0x100) >> 2);
}

/// `out = base + adds - subtracts` over one perspective's `hidden` values, all of them held in
/// registers (16 AVX2 or 8 AVX-512 ones) while the rows stream through once each.
static inline __attribute__((always_inline)) void accumulate_half(
    int16_t *out, const int16_t *base, const int16_t *const *adds, const int16_t *const *subtracts,
    int count) {
    int16_t sum[hidden];
    for (int i = 0; i < hidden; i++) sum[i] = base[i];
    for (int row = 0; row < count; row++) {
        const int16_t *add = adds[row];
        const int16_t *subtract = subtracts[row];
        for (int i = 0; i < hidden; i++) sum[i] = (int16_t)(sum[i] + add[i] - subtract[i]);
    }
    for (int i = 0; i < hidden; i++) out[i] = sum[i];
}

NANASHI_CLONES
void nanashi_update(
    int16_t *child, const int16_t *parent, const int16_t *rows, const uint64_t *windowsOfSquare,
    uint64_t xBefore, uint64_t oBefore, uint64_t xAfter, uint64_t oAfter, uint64_t blockers) {
    uint64_t changed = (xBefore ^ xAfter) | (oBefore ^ oAfter);
    uint64_t windows = 0;
    for (; changed != 0; changed &= changed - 1) windows |= windowsOfSquare[__builtin_ctzll(changed)];
    const int16_t *xAdds[36], *xSubtracts[36], *oAdds[36], *oSubtracts[36];
    int count = 0;
    for (; windows != 0; windows &= windows - 1, count++) {
        int window = __builtin_ctzll(windows);
        int corner = window / 6 * 7 + window % 6;
        int blocked = 3 * window_digits(blockers, corner);
        int xOld = window_digits(xBefore, corner), oOld = window_digits(oBefore, corner);
        int xNew = window_digits(xAfter, corner), oNew = window_digits(oAfter, corner);
        const int16_t *windowRows = rows + (long)window * windowStates * hidden;
        xAdds[count] = windowRows + (long)(xNew + 2 * oNew + blocked) * hidden;
        xSubtracts[count] = windowRows + (long)(xOld + 2 * oOld + blocked) * hidden;
        oAdds[count] = windowRows + (long)(oNew + 2 * xNew + blocked) * hidden;
        oSubtracts[count] = windowRows + (long)(oOld + 2 * xOld + blocked) * hidden;
    }
    accumulate_half(child, parent, xAdds, xSubtracts, count);
    accumulate_half(child + hidden, parent + hidden, oAdds, oSubtracts, count);
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
