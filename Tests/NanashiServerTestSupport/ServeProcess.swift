import Foundation
import NanashiStorage
import NanashiSubprocess
import NanashiTestSupport
import Testing

@testable import NanashiServer

#if canImport(Glibc)
    import Glibc
#endif

/// A `nanashi serve` process on an OS-assigned port, killed when the test lets go of it.
public final class ServeProcess {
    private let process: Subprocess
    /// The server's standard output, open while the test holds the server: it may write more.
    private let output = Pipe()
    public let port: Int
    /// The web port, when the server was started with `--http`.
    public private(set) var httpPort: Int?

    /// Starts a server on `database` (errors-only log) and waits for its `listening on` line;
    /// with `openFiles`, under that limit of open files (`ulimit -n`).
    public init(database: String, arguments extra: [String] = [], openFiles: Int? = nil) throws {
        let options =
            [
                "serve", "--port", "0", "--db", database, "--log-level", "error",
                // Every test client comes from 127.0.0.1.
                "--logins-per-minute", "1000", "--registrations-per-hour", "1000",
            ]
            + extra
        let arguments =
            if let openFiles {
                ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", NanashiExecutable.url.path] + options
            } else {
                options
            }
        process = try Subprocess(
            openFiles == nil ? NanashiExecutable.url.path : "/bin/sh", arguments: arguments,
            environment: ProcessInfo.processInfo.environment, stdin: Subprocess.nullDevice,
            stdout: output.fileHandleForWriting.fileDescriptor, stderr: Subprocess.nullDevice)
        // The child's end: reading the banner ends if the server does.
        try output.fileHandleForWriting.close()
        // `listening on HOST:PORT`, then with `--http` `web on http://HOST:PORT/`.
        let lines = extra.contains("--http") ? 2 : 1
        var banner = Data()
        while banner.filter({ $0 == UInt8(ascii: "\n") }).count < lines {
            let chunk = output.fileHandleForReading.nextChunk()
            try #require(!chunk.isEmpty, "the server exited before listening")
            banner += chunk
        }
        let text = String(decoding: banner, as: UTF8.self).split(separator: "\n")
        let listening = text[0].trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(listening.hasPrefix("listening on 127.0.0.1:"), "\(listening)")
        port = try #require(Int(listening.split(separator: ":").last ?? ""))
        if lines == 2 {
            httpPort = Int(
                text[1].split(separator: ":").last?.trimmingCharacters(in: .init(charactersIn: "/ ")) ?? "")
        }
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// `127.0.0.1:PORT`, as `--server` takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// Sends a signal and waits for the process to end: how it ended. (The process is killed
    /// when the test lets go of this object, if it still runs.)
    @discardableResult
    public func stop(with signal: Int32 = SIGTERM) -> Subprocess.Ending {
        process.send(signal)
        return process.wait()
    }
}

extension ServeProcess {
    /// Adds players to `database` before a server opens it, each with a password hashed at a
    /// cost meant for tests. Each stored hash carries its own cost, so the server (at its real
    /// cost for new hashes) logs them in as cheaply: registering at the real cost is for the
    /// one test of registration itself.
    public static func addPlayers(_ passwords: [String: String], to database: String) throws {
        let storage = try SQLiteStorage(path: database)
        try storage.pool.write { db in
            for (name, password) in passwords.sorted(by: { $0.key < $1.key }) {
                let hash = try #require(PasswordHash.make(password: password, cost: .testing))
                var player = PlayerRow.new(name: name, passwordHash: hash.description, now: Date())
                try player.insert(db)
            }
        }
    }
}
