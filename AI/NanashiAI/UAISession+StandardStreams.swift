#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UAISession {
    /// Speaks UAI on standard input and output until `quit` or the end of input, starting with
    /// `evaluation`, `network` and `threads` (the options Eval, EvalFile and Threads) and the
    /// search's `parameters`, as `nanashi uai` does.
    public static func serveStandardStreams(
        evaluation: EvaluationKind, network: Network = .trained, threads: Int = 1,
        parameters: SearchParameters = .standard
    ) async {
        // Each line goes out in unbuffered writes of its own. Not print with fflush(nil):
        // flushing every stream takes the lock of standard input, which readLine holds while it
        // waits, so the search task would block until the next line came in.
        let session = UAISession(
            evaluation: evaluation, network: network, threads: threads, parameters: parameters,
            output: { line in writeLine(line) })
        await session.serve { readLine() }
    }

    /// Writes `line` and a newline to standard output, all of it (a write may take part).
    private static func writeLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(STDOUT_FILENO, buffer.baseAddress! + written, buffer.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
