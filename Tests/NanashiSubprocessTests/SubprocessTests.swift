import Foundation
import NanashiSubprocess
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SubprocessTests {
    /// Runs `/bin/sh -c script` to its end: what it printed and how it ended.
    private func shell(_ script: String, environment: [String: String] = [:]) throws -> (
        String, Subprocess.Ending
    ) {
        let output = Pipe()
        let child = try Subprocess(
            "/bin/sh", arguments: ["-c", script], environment: environment, stdin: Subprocess.nullDevice,
            stdout: output.fileHandleForWriting.fileDescriptor,
            stderr: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (text, child.wait())
    }

    @Test func theChildGetsItsArgumentsEnvironmentAndStreams() throws {
        let (text, ending) = try shell(
            #"echo "$GREETING $0"; echo oops >&2; exit 3"#, environment: ["GREETING": "hello"])
        #expect(text == "hello /bin/sh\noops\n")
        #expect(ending == .exited(3) && ending.shellStatus == 3)
    }

    @Test func aSignalEndsTheChildAndWaitingTwiceSaysTheSame() throws {
        let child = try Subprocess(
            "/bin/sleep", arguments: ["60"], environment: [:], stdin: Subprocess.nullDevice,
            stdout: Subprocess.nullDevice, stderr: Subprocess.nullDevice)
        #expect(child.isRunning)
        child.send(SIGTERM)
        #expect(child.wait() == .signalled(SIGTERM) && child.wait().shellStatus == 143)
        #expect(!child.isRunning)
        #expect(child.wait() == .signalled(SIGTERM))
    }

    /// Threads that wait at once all learn the same ending; the child is reaped once. (Threads
    /// of their own: a blocked wait must not hold the concurrency pool's.)
    @Test func manyWaitersAtOnceAllLearnTheEnding() throws {
        let child = try Subprocess(
            "/bin/sh", arguments: ["-c", "sleep 0.2; exit 7"], environment: [:], stdin: Subprocess.nullDevice,
            stdout: Subprocess.nullDevice, stderr: Subprocess.nullDevice)
        let endings = Endings()
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            Thread.detachNewThread {
                endings.add(child.wait())
                done.signal()
            }
        }
        for _ in 0..<4 { done.wait() }
        #expect(endings.all == Array(repeating: .exited(7), count: 4))
    }

    /// A descriptor the parent has open (without close-on-exec) is not the child's.
    @Test func theChildInheritsOnlyItsThreeStreams() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let (text, ending) = try shell("test -e /proc/$$/fd/\(ends[1]) && echo open || echo closed")
        #expect(text == "closed\n")
        #expect(ending == .exited(0))
    }

    /// The child blocks and ignores no signal of 1 to 31, though this process ignores SIGPIPE
    /// once a child has started and its threads may block others. (The C library keeps 32 and
    /// 33 for itself.)
    @Test func theChildStartsWithEverySignalAtItsDefault() throws {
        let (text, ending) = try shell("exec grep -E '^Sig(Blk|Ign)' /proc/self/status")
        let masks = text.split(separator: "\n").map { line in
            (String(line.prefix(7)), UInt32(line.suffix(8), radix: 16).map { $0 & 0x7fff_ffff })
        }
        #expect(masks.map(\.0) == ["SigBlk:", "SigIgn:"])
        #expect(masks.map(\.1) == [0, 0])
        #expect(ending == .exited(0))
    }

    @Test func aProgramThatIsNotThereIsAClearError() throws {
        let error = #expect(throws: Subprocess.Failure.self) {
            try Subprocess(
                "/nonexistent/program", arguments: [], environment: [:], stdin: Subprocess.nullDevice,
                stdout: Subprocess.nullDevice, stderr: Subprocess.nullDevice)
        }
        #expect(error?.description == "cannot start /nonexistent/program: No such file or directory")
    }
}

/// Endings that threads record.
private final class Endings: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Subprocess.Ending] = []

    func add(_ ending: Subprocess.Ending) { lock.withLock { list.append(ending) } }
    var all: [Subprocess.Ending] { lock.withLock { list } }
}
