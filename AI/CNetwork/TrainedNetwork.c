#include "CNetwork.h"

/// The trained network's file, as `tools/nnue/train.py` writes it (`NetworkWeights`' format),
/// named by the first 12 hex digits of its SHA-256 (a test checks the name against the bytes).
/// Beside it, `network-<hash>.txt` says how it was trained. A new network replaces both files and
/// this name.
#define NANASHI_NETWORK_FILE "Resources/network-1bfae99fee02.nnue"

// The bytes are compiled in: nothing is read at run time, and the compiler copies them rather
// than parsing them as source (SwiftPM's `.embedInCode` makes a Swift array literal of a file,
// which the Swift compiler cannot type-check at this size). `#embed` is C23; clang takes it in
// every C standard, warning that it is an extension.
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char network[] = {
#embed NANASHI_NETWORK_FILE
};

const unsigned char *nanashi_network_bytes(void) { return network; }

size_t nanashi_network_size(void) { return sizeof network; }

const char *nanashi_network_file(void) { return NANASHI_NETWORK_FILE; }
