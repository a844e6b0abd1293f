import Foundation
import NanashiSubprocess

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server for tests: the one `NANASHI_TEST_POSTGRES` names
/// (`postgres://USER:PASSWORD@HOST:PORT/DB` of a superuser, whose databases the tests may
/// create), or else a throwaway cluster started once per test process with `initdb` and `pg_ctl`
/// (as the `postgres` user when run as root) in a temporary folder, on a free loopback port,
/// stopped and removed when the process exits.
///
/// Each test gets a database of its own (`database()`). Without PostgreSQL the tests that need
/// it are skipped, saying why (`unavailable`).
public enum TestPostgres {
    /// The environment variable that points the tests at a running PostgreSQL.
    public static let environmentVariable = "NANASHI_TEST_POSTGRES"

    /// Why there is no PostgreSQL to test against, or `nil` if there is. The first to ask
    /// starts the cluster (the others wait for it), on a thread of its own.
    public static var unavailable: String? {
        get async {
            switch await resultOnAThreadOfItsOwn({ server }) {
            case .success: nil
            case .failure(let why): "PostgreSQL tests skipped: \(why.message)"
            }
        }
    }

    /// A new, empty database's URL; `postgres://postgres:PASSWORD@127.0.0.1:PORT/NAME`.
    ///
    /// - Throws: `TestPostgresError` if there is no PostgreSQL or the database cannot be created.
    public static func database() async throws -> String {
        try await onAThreadOfItsOwn {
            try createDatabase(
                "nanashi_test_\(ProcessInfo.processInfo.processIdentifier)_\(UUID().uuidString.prefix(8).lowercased())",
                on: try server.get())
        }
    }

    /// The server's URL for `database` with a wrong password (to test a refused login).
    public static func wrongPassword(database: String) async throws -> String {
        try await onAThreadOfItsOwn {
            var server = try server.get()
            server.password = "wrong-\(server.password)"
            return server.url(database: database)
        }
    }

    /// Creates the database `name` on `server` (with `psql`); its URL.
    private static func createDatabase(_ name: String, on server: Server) throws(TestPostgresError) -> String
    {
        try run(
            psql,
            [
                "-X", "-q", "-v", "ON_ERROR_STOP=1", server.url(database: "postgres"), "-c",
                "CREATE DATABASE \(name)",
            ])
        return server.url(database: name)
    }

    /// Runs `work`, which waits for processes (`initdb`, `pg_ctl`, `psql`) or for the cluster's
    /// start, on a thread of its own: on Swift concurrency's pool (a thread a core) it would hold
    /// up the in-process servers of every other test meanwhile.
    private static func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T)
        async throws
        -> T
    {
        try await resultOnAThreadOfItsOwn { Result { try work() } }.get()
    }

    /// `work`'s value, computed on a thread of its own (for work that cannot throw, or that
    /// returns its failure as a `Result`).
    private static func resultOnAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// A running server: where it listens and its superuser's login.
    struct Server {
        var user: String
        var password: String
        var host: String
        var port: Int

        func url(database: String) -> String {
            "postgres://\(user):\(password)@\(host):\(port)/\(database)"
        }
    }

    private static let server: Result<Server, TestPostgresError> = {
        do throws(TestPostgresError) {
            return .success(try findOrStart())
        } catch {
            return .failure(error)
        }
    }()

    private static func findOrStart() throws(TestPostgresError) -> Server {
        if let text = ProcessInfo.processInfo.environment[environmentVariable], !text.isEmpty {
            guard let url = URLComponents(string: text), let user = url.user, let host = url.host else {
                throw TestPostgresError(
                    "\(environmentVariable) is not a postgres://USER:PASSWORD@HOST:PORT/DB URL")
            }
            return Server(user: user, password: url.password ?? "", host: host, port: url.port ?? 5432)
        }
        guard let bin = binaries else {
            throw TestPostgresError(
                "initdb and pg_ctl not found (install Debian's postgresql, or set \(environmentVariable))")
        }
        return try startCluster(bin: bin)
    }

    /// The folder of `initdb` and `pg_ctl` (and `psql`): Debian's versioned folder, or on the PATH.
    private static var binaries: String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return (debian + path).first { folder in
            FileManager.default.isExecutableFile(atPath: folder + "/initdb")
                && FileManager.default.isExecutableFile(atPath: folder + "/pg_ctl")
        }
    }

    private static var psql: String {
        binaries.map { $0 + "/psql" }.flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
            ?? "/usr/bin/psql"
    }

    /// The cluster's folder, removed at exit.
    nonisolated(unsafe) private static var cluster: (folder: String, bin: String, asPostgres: Bool)?

    /// A cluster of the caller's own, started now, which it may stop and start again (the
    /// shared one must not be: other tests use it meanwhile); removed when the process exits.
    ///
    /// - Throws: `TestPostgresError` without `initdb` and `pg_ctl` (a running PostgreSQL named by
    ///   `NANASHI_TEST_POSTGRES` cannot be stopped by the tests).
    public static func ownCluster() async throws -> OwnCluster {
        guard let bin = binaries else {
            throw TestPostgresError("initdb and pg_ctl not found (install Debian's postgresql)")
        }
        return try await onAThreadOfItsOwn { try startCluster(bin: bin, shared: false) }
    }

    /// A cluster one test owns: it may stop it and start it again.
    public final class OwnCluster: Sendable {
        let server: Server
        let folder: String
        let bin: String
        let asPostgres: Bool
        /// The server's options, given again at each start.
        let options: String

        init(server: Server, folder: String, bin: String, asPostgres: Bool, options: String) {
            self.server = server
            self.folder = folder
            self.bin = bin
            self.asPostgres = asPostgres
            self.options = options
        }

        /// A new, empty database's URL.
        public func database() async throws -> String {
            let (name, server) = ("nanashi_own_\(UUID().uuidString.prefix(8).lowercased())", server)
            return try await onAThreadOfItsOwn { try createDatabase(name, on: server) }
        }

        /// `pg_ctl stop -m fast`: the server ends every session and stops.
        public func stop() async throws {
            try await onAThreadOfItsOwn {
                try self.pgCtl(["-D", self.folder + "/data", "-m", "fast", "-w", "stop"])
            }
        }

        /// Starts the stopped server again on the same port.
        public func start() async throws {
            try await onAThreadOfItsOwn {
                try self.pgCtl([
                    "-D", self.folder + "/data", "-l", self.folder + "/log", "-w", "-t", "60", "-o",
                    self.options,
                    "start",
                ])
            }
        }

        private func pgCtl(_ arguments: [String]) throws {
            if asPostgres {
                try run("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/pg_ctl"] + arguments)
            } else {
                try run(bin + "/pg_ctl", arguments)
            }
        }
    }

    private static func startCluster(bin: String) throws(TestPostgresError) -> Server {
        try startCluster(bin: bin, shared: true).server
    }

    /// Clusters of tests' own, stopped and removed at exit.
    nonisolated(unsafe) private static var ownClusters: [(folder: String, bin: String, asPostgres: Bool)] = []
    private static let ownClustersLock = NSLock()

    private static func startCluster(bin: String, shared: Bool) throws(TestPostgresError) -> OwnCluster {
        // initdb refuses to run as root: the cluster belongs to the postgres user then.
        let asPostgres = getuid() == 0
        var template = Array("/tmp/nanashi-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestPostgresError("no temporary folder") }
        let folder = String(cString: made)
        let password = UUID().uuidString.lowercased()
        do {
            try Data(password.utf8).write(to: URL(fileURLWithPath: folder + "/password"))
            if asPostgres {
                try run("/bin/chown", ["-R", "postgres:postgres", folder])
            }
            let port = try freePort()
            // Room for the whole suite's PostgreSQL tests at once: each node opens a pool, a
            // listening and a heartbeat connection (at 200, some were refused "too many clients").
            let options =
                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
                + " -c full_page_writes=off -c max_connections=600"
            func asOwner(_ tool: String, _ arguments: [String]) throws {
                if asPostgres {
                    try run("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/" + tool] + arguments)
                } else {
                    try run(bin + "/" + tool, arguments)
                }
            }
            try asOwner(
                "initdb",
                [
                    "-D", folder + "/data", "-U", "postgres", "--pwfile=\(folder)/password",
                    "--auth=scram-sha-256",
                    "--no-sync", "-E", "UTF8", "--locale=C",
                ])
            if shared {
                cluster = (folder, bin, asPostgres)
                atexit { TestPostgres.stopCluster() }
            } else {
                let first = ownClustersLock.withLock {
                    ownClusters.append((folder, bin, asPostgres))
                    return ownClusters.count == 1
                }
                if first { atexit { TestPostgres.stopOwnClusters() } }
            }
            try asOwner(
                "pg_ctl",
                [
                    "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o", options, "start",
                ])
            return OwnCluster(
                server: Server(user: "postgres", password: password, host: "127.0.0.1", port: port),
                folder: folder,
                bin: bin, asPostgres: asPostgres, options: options)
        } catch {
            // The server's own account of why (its log goes with the folder at exit).
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            let tail = log.split(separator: "\n").suffix(10).joined(separator: "\n")
            throw TestPostgresError(
                "the throwaway cluster in \(folder) did not start: \(error)\nthe end of its log:\n\(tail)")
        }
    }

    private static func stopCluster() {
        guard let cluster else { return }
        stop(cluster)
    }

    private static func stopOwnClusters() {
        for own in ownClustersLock.withLock({ ownClusters }) { stop(own) }
    }

    private static func stop(_ cluster: (folder: String, bin: String, asPostgres: Bool)) {
        let arguments = ["-D", cluster.folder + "/data", "-m", "immediate", "-w", "stop"]
        if cluster.asPostgres {
            _ = try? run("/usr/sbin/runuser", ["-u", "postgres", "--", cluster.bin + "/pg_ctl"] + arguments)
        } else {
            _ = try? run(cluster.bin + "/pg_ctl", arguments)
        }
        try? FileManager.default.removeItem(atPath: cluster.folder)
    }

    /// A port no one uses now, below the system's ephemeral range (from which `bind` to port 0
    /// and every outgoing connection take theirs): a port from that range, free when asked, could
    /// be taken as the local end of one of the suite's many connections to the shared cluster
    /// before the new server binds it, and the server would then stop at once ("could not start
    /// server").
    private static func freePort() throws -> Int {
        let ephemeralStart =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))
            .flatMap { Int($0.split(whereSeparator: \.isWhitespace).first ?? "") } ?? 32768
        let ports = 10_000..<max(ephemeralStart, 10_100)
        for _ in 0..<100 {
            let port = Int.random(in: ports)
            if isFree(port) { return port }
        }
        throw TestPostgresError("no free port in \(ports)")
    }

    /// Whether a socket can bind 127.0.0.1:`port` now.
    private static func isFree(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Runs a tool to its end; throws with its output if it fails.
    ///
    /// Through `Subprocess`, not `Process`: tests wait here from many tasks at once
    /// (the first starts the cluster, the others wait for it), and `Process` needs a free Dispatch
    /// thread to learn that its child ended. The output goes to a file, not a pipe, which the
    /// server that `pg_ctl start` leaves running would hold open; the child inherits no other
    /// descriptor, so that server holds none of another test's pipes either.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws(TestPostgresError) -> String {
        let output = "/tmp/nanashi-pg-\(UUID().uuidString).out"
        defer { unlink(output) }
        let file = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw TestPostgresError("cannot write \(output): error \(errno)") }
        let ending: Subprocess.Ending
        do {
            defer { close(file) }
            ending = try Subprocess(
                tool, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                stdin: Subprocess.nullDevice, stdout: file, stderr: file
            ).wait()
        } catch {
            throw TestPostgresError("\(tool) cannot run: \(error)")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard ending == .exited(0) else {
            throw TestPostgresError(
                "\(tool) \(arguments.prefix(2).joined(separator: " ")) failed (\(ending)): \(text.suffix(400))"
            )
        }
        return text
    }
}

/// Why PostgreSQL is not there for the tests.
public struct TestPostgresError: Error, CustomStringConvertible {
    public let message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}
