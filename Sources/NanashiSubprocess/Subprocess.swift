import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn` on the descriptors given, ended or waited for through
/// `waitpid`.
///
/// Not Foundation's `Process`: on Linux its `run()` reads each entry of /proc/self/fd 256 bytes
/// whole, past the end of a short one; in a process with many sockets open it now and then reads
/// past the end of a page, and the whole process crashes (a test run died so twice). And it
/// learns that its child ended on a Dispatch thread, which the process's tasks need as well.
///
/// The child inherits only standard input, output and error. The parent closes its own copies of
/// the child's ends (a pipe's write end, say) once this returns, so that reading ends with the
/// child. The object ends a child still running with SIGKILL when it goes away. Once a child
/// starts, the whole process ignores SIGPIPE: writing to a child that died fails instead of
/// ending the parent.
public final class Subprocess: @unchecked Sendable {
    /// How a child ended.
    public enum Ending: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case signalled(Int32)

        /// The status as a shell reports it: the exit status, or 128 and the signal's number.
        public var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// A program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let id: pid_t

    private let lock = NSLock()
    // Guarded by `lock`.
    private var ending: Ending?

    /// Starts `path` (a full path: no search of PATH) with `arguments` and `environment`, its
    /// standard input, output and error on the descriptors given.
    public init(
        _ path: String, arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32,
        stderr: Int32
    ) throws {
        Self.brokenPipesFailWrites
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        guard let closeFrom = Self.closeFrom else {
            throw Failure(description: "this C library cannot close descriptors in a child")
        }
        _ = closeFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        // The child starts with no signal blocked and each at its default, whatever this
        // process's threads block or ignore (SIGPIPE, above).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        id = pid
    }

    deinit {
        if isRunning {
            kill(id, SIGKILL)
            _ = wait()
        }
    }

    /// A descriptor open on /dev/null for reading and writing, for a child's unused streams.
    public static let nullDevice: Int32 = open("/dev/null", O_RDWR | O_CLOEXEC)

    /// Whether the child has not ended yet.
    public var isRunning: Bool { reap() == nil }

    /// Waits for the child to end, and says how it did.
    @discardableResult
    public func wait() -> Ending {
        while true {
            // Waits for the end without reaping it (WNOWAIT), so that any number of threads may
            // wait at once; the one reaping call below is made under the lock.
            var info = siginfo_t()
            let waited = waitid(P_PID, id_t(id), &info, WEXITED | WNOWAIT)
            if waited == -1 && errno == EINTR { continue }
            if let ending = reap() { return ending }
            precondition(waited == 0, "child \(id) was reaped outside its Subprocess")
        }
    }

    /// Sends `signal` to the child, unless it has ended.
    public func send(_ signal: Int32) {
        // Until this object reaps it, the child's id cannot go to another process.
        if isRunning { kill(id, signal) }
    }

    /// How the child ended, or `nil` while it runs. Only here, under the lock, is it reaped.
    private func reap() -> Ending? {
        lock.withLock {
            if let ending { return ending }
            var status: Int32 = 0
            guard waitpid(id, &status, WNOHANG) == id else { return nil }
            let low = status & 0x7f
            ending = low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low)
            return ending
        }
    }

    /// Ignores SIGPIPE, once.
    private static let brokenPipesFailWrites: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closeFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()
}
