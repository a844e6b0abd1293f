import ArgumentParser
import Foundation
import Logging
import NanashiServer

/// `nanashi serve`: runs the online server until the process is stopped.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the online server: accounts, matchmaking, rated games, leaderboard.",
        discussion: """
            Speaks protocol v1 (docs/PROTOCOL.md): one JSON object per line over TCP. Prints \
            'listening on HOST:PORT' once ready; logs go to standard error.
            """
    )

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port (0 lets the system choose).")
    var port = 7878

    @Option(help: "The SQLite database file (created if missing).")
    var db = "nanashi.sqlite"

    @Option(help: "Seconds a player may be away from a game in progress before losing it.")
    var grace = 60

    @Option(help: "Seconds a connection may send nothing before it is closed.")
    var idleTimeout = 120

    @Option(help: "Messages a connection may send without waiting for replies before it is rate limited.")
    var messageBurst = 50

    @Option(help: "Messages per second that budget refills by.")
    var messageRate = 20.0

    @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func run() async throws {
        guard (0...65535).contains(port) else { throw InputError("bad port \(port): use 0 to 65535") }
        guard grace >= 1 else { throw InputError("bad grace \(grace): use 1 second or more") }
        guard (1...86_400).contains(idleTimeout) else {
            throw InputError("bad idle timeout \(idleTimeout): use 1 to 86400 seconds")
        }
        guard messageBurst >= 1 else { throw InputError("bad message burst \(messageBurst): use 1 or more") }
        guard messageRate > 0, messageRate.isFinite else {
            throw InputError("bad message rate \(messageRate): use more than 0")
        }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw InputError("bad log level '\(logLevel)'")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var settings = ServerSettings()
        settings.host = host
        settings.port = port
        settings.databasePath = db
        settings.abandonGrace = .seconds(grace)
        settings.idleTimeout = .seconds(idleTimeout)
        settings.messageBurst = messageBurst
        settings.messageRate = messageRate
        let server: Server
        do {
            let logger = Logger(label: "nanashi.server")
            if settings.passwordCost != .owasp {
                logger.warning(
                    "new password hashes use scrypt N=2^\(settings.passwordCost.log2N): for tests only")
            }
            server = try await Server.start(settings, logger: logger)
        } catch {
            throw InputError("cannot serve on \(host):\(port) with database \(db): \(error)")
        }
        // SIGTERM or SIGINT: stop accepting, send every client `shutdown`, close connections
        // after their queued replies, and exit 0. Every reply was stored before it was sent;
        // unfinished games stay stored and resume at the next start.
        StopSignal.install { Task { await server.stop() } }
        print("listening on \(host):\(server.port)")
        flushOutput()
        await server.waitUntilStopped()
    }
}

/// Turns SIGTERM and SIGINT into a call on an ordinary thread: the handler only writes a byte
/// to a pipe (all a signal handler may safely do), and a thread waiting on the pipe acts.
private enum StopSignal {
    nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]

    static func install(_ action: @escaping @Sendable () -> Void) {
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
