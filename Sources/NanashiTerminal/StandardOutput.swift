// The C library is imported @preconcurrency so that this file may name `stdout` and `stderr`,
// C globals; writing and flushing them is safe from any thread since stdio locks each stream.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// Standard output and error for the commands that write line by line (reports, benchmarks,
/// the server's first line), apart from the interactive console.
public enum StandardOutput {
    /// Prints `line` and pushes it to its reader at once: progress that a person watches, or a
    /// line another program waits for.
    ///
    /// Only standard output is flushed: `fflush(nil)` would also wait for the lock that a
    /// `readLine()` blocked on standard input holds, and hang.
    @Sendable public static func line(_ line: String) {
        print(line)
        fflush(stdout)
    }

    /// Writes `text` to standard error as it is: progress that rewrites its line (`\r`).
    @Sendable public static func progress(_ text: String) {
        fputs(text, stderr)
    }

    /// Writes `line` and a line break to standard error.
    @Sendable public static func error(_ line: String) {
        fputs(line + "\n", stderr)
    }

    /// Ends the program as every error a user can cause ends a command: `failureLine(message)`
    /// on standard error, exit code 2.
    public static func fail(_ message: String) -> Never {
        error(failureLine(message))
        exit(2)
    }

    /// A failure in one line: `nanashi: `, then the message with its line breaks made spaces.
    public static func failureLine(_ message: String) -> String {
        "nanashi: " + message.split(separator: "\n").joined(separator: " ")
    }
}
