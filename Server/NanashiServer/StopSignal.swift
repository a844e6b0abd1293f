import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGTERM and SIGINT into a call on an ordinary thread: the handler only writes a byte
/// to a pipe (all a signal handler may safely do), and a thread waiting on the pipe acts.
public enum StopSignal {
    nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]

    /// Calls `action` once, on a thread of its own, at the first SIGTERM or SIGINT.
    public static func install(_ action: @escaping @Sendable () -> Void) {
        guard pipe(&pipeEnds) == 0 else { return }
        let reader = pipeEnds[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(reader, &byte, 1) != 1 {}
            action()
        }
        for number in [SIGTERM, SIGINT] {
            signal(number) { _ in
                var byte: UInt8 = 1
                _ = write(StopSignal.pipeEnds[1], &byte, 1)
            }
        }
    }
}
