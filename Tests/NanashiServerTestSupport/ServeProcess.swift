import Foundation
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

#if canImport(Glibc)
    import Glibc
#endif

/// A `nanashi serve` process on an OS-assigned port, killed when the test lets go of it.
public final class ServeProcess {
    private let process = Process()
    public let port: Int
    /// The web port, when the server was started with `--http`.
    public private(set) var httpPort: Int?

    /// Starts a server on `database` (errors-only log) and waits for its `listening on` line;
    /// with `openFiles`, under that limit of open files (`ulimit -n`).
    public init(database: String, arguments extra: [String] = [], openFiles: Int? = nil) throws {
        let arguments =
            [
                "serve", "--port", "0", "--db", database, "--log-level", "error",
                // Every test client comes from 127.0.0.1.
                "--logins-per-minute", "1000", "--registrations-per-hour", "1000",
            ]
            + extra
        if let openFiles {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", NanashiExecutable.url.path] + arguments
        } else {
            process.executableURL = NanashiExecutable.url
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
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

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// `127.0.0.1:PORT`, as `--server` takes it.
    public var address: String { "127.0.0.1:\(port)" }

    /// Sends a signal and waits for the process to end: how it ended and its status.
    @discardableResult
    public func stop(with signal: Int32 = SIGTERM) -> (Process.TerminationReason, Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
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
