#ifndef NANASHI_C_NETWORK_H
#define NANASHI_C_NETWORK_H

#include <stddef.h>
#include <stdint.h>

/// The network's vector kernels. Swift has no way to ask for wider vectors only where the
/// processor has them; these are compiled three times (AVX-512, AVX2, and the x86-64 baseline)
/// and the processor's own is chosen when the program is loaded.

/// Writes to `child` the accumulator (x's 256 hidden values, then o's) of the board after a move,
/// from `parent`, the accumulator before it: for each 2x2 window holding a square the move changed
/// (`windowsOfSquare`: one bit per window for each square), the row of the window's new state is
/// added and the old one's subtracted (wrapping), from each perspective. `rows` holds 256 8-bit
/// values for each input, window times 256 plus state, numbered as `Tuples.states` numbers them.
void nanashi_update(
    int16_t *child, const int16_t *parent, const int8_t *rows, const uint64_t *windowsOfSquare,
    uint64_t xBefore, uint64_t oBefore, uint64_t xAfter, uint64_t oAfter, uint64_t blockers);

/// The output layer over squared clipped activations (SCReLU): the sum over `i` of
/// `c(own[i])^2 * weights[i] + c(other[i])^2 * weights[size + i]`, where `c` clips to
/// 0...`one`, computed as `(c * weight) * c` with the first product in 16 bits (so `one` times
/// the largest weight must fit there). `size` is a multiple of 64.
int64_t nanashi_screlu_output(
    const int16_t *own, const int16_t *other, const int16_t *weights, int16_t one, int size);

/// The trained network the engine plays with (`NetworkWeights`' format): the bytes of the file
/// `nanashi_network_file()` names (relative to `AI/CNetwork`), compiled into the program.
const unsigned char *nanashi_network_bytes(void);
size_t nanashi_network_size(void);
const char *nanashi_network_file(void);

#endif
