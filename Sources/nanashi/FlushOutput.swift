// Kept apart from Foundation: this file imports the C library with @preconcurrency so that it
// may name `stdout`, a C global; flushing it is safe from any thread since stdio locks the stream.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Pushes buffered standard output to its reader now (progress lines, protocol replies).
///
/// Only standard output: `fflush(nil)` would also wait for the lock that a `readLine()` blocked
/// on standard input holds, and hang.
func flushOutput() {
    fflush(stdout)
}
