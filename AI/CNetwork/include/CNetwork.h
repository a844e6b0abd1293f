#ifndef NANASHI_C_NETWORK_H
#define NANASHI_C_NETWORK_H

#include <stdint.h>

/// The network's vector kernels. Swift has no way to ask for wider vectors only where the
/// processor has them; these are compiled three times (AVX-512, AVX2, and the x86-64 baseline) and the
/// processor's own is chosen when the program starts.

/// Writes to `out` the `size` 16-bit sums `base + adds[0] + ... - subtracts[0] - ...`
/// (wrapping), where each of `adds` and `subtracts` points at `size` values. `size` is a
/// multiple of 128.
void nanashi_accumulate(
    int16_t *out, const int16_t *base, const int16_t *const *adds, int addCount,
    const int16_t *const *subtracts, int subtractCount, int size);

/// The output layer over squared clipped activations (SCReLU): the sum over `i` of
/// `c(own[i])^2 * weights[i] + c(other[i])^2 * weights[size + i]`, where `c` clips to
/// 0...`one`, computed as `(c * weight) * c` with the first product in 16 bits (so `one` times
/// the largest weight must fit there). `size` is a multiple of 64.
int64_t nanashi_screlu_output(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size);

#endif
