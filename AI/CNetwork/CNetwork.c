#include "CNetwork.h"

/// Values of one perspective's hidden layer.
enum { hidden = 256, windowStates = 256 };

/// The window's four squares in `bits`, whose lower left square is `corner`, as four bits: the
/// lower left, lower right, upper left and upper right squares (bits 0, 1, 7 and 8 above it).
static inline __attribute__((always_inline)) uint32_t window_bits(uint64_t bits, int corner) {
    uint64_t shifted = bits >> corner;
    return (uint32_t)((shifted & 3) | ((shifted >> 5) & 0xC));
}

/// Four bits spread to the even bits of a byte: `abcd` to `0a0b0c0d`.
static inline __attribute__((always_inline)) uint32_t spread_to_even_bits(uint32_t four) {
    four = (four | four << 2) & 0x33;
    return (four | four << 1) & 0x55;
}

/// A window's state at `corner`: its squares' base-4 digits, own's 1, other's 2 and a blocker's
/// 3 (1, 4, 16 and 64 for the lower left, lower right, upper left and upper right squares), made
/// of the own squares (blockers included) on the even bits and the other's (blockers included)
/// on the odd ones. Shifts and masks only, for processors whose bit gather and scatter
/// instructions (BMI2's) are microcoded and slow. It and the two above are forced inline: the
/// compiler called them from the wide versions, whose target differs from theirs, and the calls
/// took a fifth of the search's time.
static inline __attribute__((always_inline)) int window_state(
    uint64_t own, uint64_t other, uint64_t blockers, int corner) {
    return (int)(spread_to_even_bits(window_bits(own | blockers, corner)) |
                 spread_to_even_bits(window_bits(other | blockers, corner)) << 1);
}

/// `out = base + adds - subtracts` over one perspective's `hidden` values, all of them held in
/// registers (16 AVX2 or 8 AVX-512 ones) while the rows stream through once each, each 8-bit
/// weight widened to 16 bits as it is loaded.
static inline __attribute__((always_inline)) void accumulate_half(
    int16_t *out, const int16_t *base, const int8_t *const *adds, const int8_t *const *subtracts,
    int count) {
    int16_t sum[hidden];
    for (int i = 0; i < hidden; i++) sum[i] = base[i];
    for (int row = 0; row < count; row++) {
        const int8_t *add = adds[row];
        const int8_t *subtract = subtracts[row];
        for (int i = 0; i < hidden; i++) sum[i] = (int16_t)(sum[i] + add[i] - subtract[i]);
    }
    for (int i = 0; i < hidden; i++) out[i] = sum[i];
}

/// Asks for a row's four cache lines (64 bytes each) before it is read: the rows of one update lie
/// far apart in the table, and each would otherwise wait for memory when its turn comes.
static inline __attribute__((always_inline)) void prefetch_row(const int8_t *row) {
    for (int line = 0; line < hidden; line += 64) __builtin_prefetch(row + line);
}

/// The parameters of an update's versions, and their names as arguments.
#define UPDATE_PARAMETERS                                                                        \
    int16_t *child, const int16_t *parent, const int8_t *rows, const uint64_t *windowsOfSquare, \
        uint64_t xBefore, uint64_t oBefore, uint64_t xAfter, uint64_t oAfter, uint64_t blockers
#define UPDATE_ARGUMENTS                                                                         \
    child, parent, rows, windowsOfSquare, xBefore, oBefore, xAfter, oAfter, blockers

/// A window's state at `corner`, as `window_state` gives it.
typedef int (*WindowState)(uint64_t own, uint64_t other, uint64_t blockers, int corner);

/// The body of an update: for each window holding a changed square, the rows of its new and old
/// states (by `state`) from both perspectives, then both halves summed. Inlined into each version
/// below with its `state`, so that the sums are compiled for that version's vectors.
static inline __attribute__((always_inline)) void update_body(
    int16_t *child, const int16_t *parent, const int8_t *rows, const uint64_t *windowsOfSquare,
    uint64_t xBefore, uint64_t oBefore, uint64_t xAfter, uint64_t oAfter, uint64_t blockers,
    WindowState state) {
    uint64_t changed = (xBefore ^ xAfter) | (oBefore ^ oAfter);
    uint64_t windows = 0;
    for (; changed != 0; changed &= changed - 1) {
        windows |= windowsOfSquare[__builtin_ctzll(changed)];
    }
    const int8_t *xAdds[36], *xSubtracts[36], *oAdds[36], *oSubtracts[36];
    int count = 0;
    for (; windows != 0; windows &= windows - 1, count++) {
        int window = __builtin_ctzll(windows);
        int corner = window / 6 * 7 + window % 6;
        const int8_t *windowRows = rows + (long)window * windowStates * hidden;
        xAdds[count] = windowRows + (long)state(xAfter, oAfter, blockers, corner) * hidden;
        xSubtracts[count] =
            windowRows + (long)state(xBefore, oBefore, blockers, corner) * hidden;
        oAdds[count] = windowRows + (long)state(oAfter, xAfter, blockers, corner) * hidden;
        oSubtracts[count] =
            windowRows + (long)state(oBefore, xBefore, blockers, corner) * hidden;
        prefetch_row(xAdds[count]);
        prefetch_row(xSubtracts[count]);
        prefetch_row(oAdds[count]);
        prefetch_row(oSubtracts[count]);
    }
    accumulate_half(child, parent, xAdds, xSubtracts, count);
    accumulate_half(child + hidden, parent + hidden, oAdds, oSubtracts, count);
}

static void update_plain(UPDATE_PARAMETERS) {
    update_body(UPDATE_ARGUMENTS, window_state);
}

#if defined(__x86_64__) && defined(__linux__)
#include <cpuid.h>
#include <immintrin.h>

/// A window's state in four instructions: its four squares' bits gathered (bits 0, 1, 7 and 8
/// above the corner: 0x183) and spread to the even bits (own's, blockers included) and the odd
/// ones (the other's, blockers included). On an Intel Xeon the search ran 14 to 22 % faster with
/// it than with `window_state`.
__attribute__((target("bmi2"), always_inline)) static inline int window_state_gathered(
    uint64_t own, uint64_t other, uint64_t blockers, int corner) {
    uint64_t window = 0x183ULL << corner;
    return (int)(_pdep_u32((uint32_t)_pext_u64(own | blockers, window), 0x55) |
                 _pdep_u32((uint32_t)_pext_u64(other | blockers, window), 0xAA));
}

/// Every processor with AVX-512 has a fast BMI2.
__attribute__((target("avx512bw,bmi2"))) static void update_avx512(UPDATE_PARAMETERS) {
    update_body(UPDATE_ARGUMENTS, window_state_gathered);
}

__attribute__((target("avx2,bmi2"))) static void update_avx2_gathered(UPDATE_PARAMETERS) {
    update_body(UPDATE_ARGUMENTS, window_state_gathered);
}

__attribute__((target("avx2"))) static void update_avx2(UPDATE_PARAMETERS) {
    update_body(UPDATE_ARGUMENTS, window_state);
}

/// Whether BMI2's gather and scatter run in microcode: on AMD's processors before Zen 3 (family
/// 0x19), and Hygon's, which are Zen 1, they take tens to hundreds of cycles each.
static int bit_gather_is_slow(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return 1;
    int amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163;    // "AuthenticAMD"
    int hygon = ebx == 0x6f677948 && edx == 0x6e65476e && ecx == 0x656e6975;  // "HygonGenuine"
    if (hygon) return 1;
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    unsigned int family = (eax >> 8) & 0xF;
    if (family == 0xF) family += (eax >> 20) & 0xFF;
    return family < 0x19;
}

typedef void (*Update)(
    int16_t *, const int16_t *, const int8_t *, const uint64_t *, uint64_t, uint64_t, uint64_t,
    uint64_t, uint64_t);

/// Chooses the processor's own version when the program is loaded.
static Update resolve_update(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("bmi2")) return update_avx512;
    if (__builtin_cpu_supports("avx2")) {
        if (__builtin_cpu_supports("bmi2") && !bit_gather_is_slow()) return update_avx2_gathered;
        return update_avx2;
    }
    return update_plain;
}

void nanashi_update(UPDATE_PARAMETERS)
    __attribute__((ifunc("resolve_update")));
#else
void nanashi_update(UPDATE_PARAMETERS) {
    update_plain(UPDATE_ARGUMENTS);
}
#endif

static inline int16_t clip(int16_t value, int16_t one) {
    return value < 0 ? 0 : (value > one ? one : value);
}

/// The output layer in plain C, for any processor.
static int64_t screlu_output_plain(
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

#if defined(__x86_64__) && defined(__linux__)
// The compiler does not find the multiply-and-add-pairs instruction (16-bit products summed
// pairwise into 32 bits) in the plain loop, so the wide versions ask for it by name. The sums are
// the same integers: each 32-bit lane adds at most size / 8 products under 2^23.

__attribute__((target("avx2"))) static int64_t screlu_output_avx2(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i top = _mm256_set1_epi16(one);
    __m256i ownSum = zero, otherSum = zero;
    for (int i = 0; i < size; i += 16) {
        __m256i ownValues = _mm256_loadu_si256((const __m256i *)(own + i));
        __m256i otherValues = _mm256_loadu_si256((const __m256i *)(other + i));
        __m256i a = _mm256_min_epi16(_mm256_max_epi16(ownValues, zero), top);
        __m256i b = _mm256_min_epi16(_mm256_max_epi16(otherValues, zero), top);
        __m256i aw = _mm256_mullo_epi16(a, _mm256_loadu_si256((const __m256i *)(weights + i)));
        __m256i otherWeights = _mm256_loadu_si256((const __m256i *)(weights + size + i));
        __m256i bw = _mm256_mullo_epi16(b, otherWeights);
        ownSum = _mm256_add_epi32(ownSum, _mm256_madd_epi16(aw, a));
        otherSum = _mm256_add_epi32(otherSum, _mm256_madd_epi16(bw, b));
    }
    __m256i wide = _mm256_add_epi64(
        _mm256_add_epi64(
            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(ownSum)),
            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(ownSum, 1))),
        _mm256_add_epi64(
            _mm256_cvtepi32_epi64(_mm256_castsi256_si128(otherSum)),
            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(otherSum, 1))));
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1));
    return _mm_cvtsi128_si64(half) + _mm_extract_epi64(half, 1);
}

__attribute__((target("avx512bw"))) static int64_t screlu_output_avx512(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i top = _mm512_set1_epi16(one);
    __m512i ownSum = zero, otherSum = zero;
    for (int i = 0; i < size; i += 32) {
        __m512i a = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(own + i), zero), top);
        __m512i b = _mm512_min_epi16(_mm512_max_epi16(_mm512_loadu_si512(other + i), zero), top);
        __m512i aw = _mm512_mullo_epi16(a, _mm512_loadu_si512(weights + i));
        __m512i bw = _mm512_mullo_epi16(b, _mm512_loadu_si512(weights + size + i));
        ownSum = _mm512_add_epi32(ownSum, _mm512_madd_epi16(aw, a));
        otherSum = _mm512_add_epi32(otherSum, _mm512_madd_epi16(bw, b));
    }
    __m512i wide = _mm512_add_epi64(
        _mm512_add_epi64(
            _mm512_cvtepi32_epi64(_mm512_castsi512_si256(ownSum)),
            _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(ownSum, 1))),
        _mm512_add_epi64(
            _mm512_cvtepi32_epi64(_mm512_castsi512_si256(otherSum)),
            _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(otherSum, 1))));
    return _mm512_reduce_add_epi64(wide);
}

typedef int64_t (*ScreluOutput)(const int16_t *, const int16_t *, const int16_t *, int16_t, int);

/// Chooses the processor's own version when the program is loaded.
static ScreluOutput resolve_screlu_output(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512bw")) return screlu_output_avx512;
    if (__builtin_cpu_supports("avx2")) return screlu_output_avx2;
    return screlu_output_plain;
}

int64_t nanashi_screlu_output(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size)
    __attribute__((ifunc("resolve_screlu_output")));
#else
int64_t nanashi_screlu_output(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size) {
    return screlu_output_plain(own, other, weights, one, size);
}
#endif
