import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts programs with `posix_spawn` instead of Foundation's `Process.run()`, which on Linux
/// reads each entry of /proc/self/fd whole, past the end of a short one: in a test process with
/// many sockets open, now and then past the end of a page, and the test process crashes
/// (swift-corelibs-foundation's `findMaximumOpenFromProcSelfFD`). Descriptors other than the
/// three given are closed in the child.
public enum Spawn {
    /// A program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `path` with `arguments` and `environment`, its standard input, output and error on
    /// the descriptors given; returns its process id.
    public static func start(
        _ path: String, arguments: [String], environment: [String: String], stdin: Int32, stdout: Int32,
        stderr: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        guard let closeFrom else {
            throw Failure(description: "this C library cannot close descriptors in a child")
        }
        _ = closeFrom(&actions, 3)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard status == 0 else {
            throw Failure(description: "cannot start \(path): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    private static let closeFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Waits for process `pid` to end: its exit status, or the number of the signal that ended it.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }
}
