import Logging
import NanashiRuntime
import NanashiStorage
import NanashiTransport

extension Server {
    /// `nanashi serve`: logs at `level` to standard error, raises the open-file limit for
    /// `settings.maximumConnections` (warning when the hard limit is lower), starts, announces
    /// where it listens through `announce`, then serves until SIGTERM or SIGINT.
    ///
    /// On either signal it stops accepting, sends every client `shutdown`, closes connections
    /// after their queued replies, and returns. Every reply was stored before it was sent;
    /// unfinished games stay stored and resume at the next start.
    ///
    /// - Throws: `ServeError` when the server cannot start (the port, the database).
    public static func serve(
        _ settings: ServerSettings, logLevel: Logger.Level, announce: (String) -> Void
    ) async throws(ServeError) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let server: Server
        // Never the password of a PostgreSQL URL.
        let database = (try? DatabaseAddress(parsing: settings.databasePath).description) ?? "?"
        do {
            let logger = Logger(label: "nanashi.server")
            // Each connection is a descriptor, and so is each refused one while it is told why;
            // the database, the listeners and libraries need a few more.
            let wanted = settings.maximumConnections + 512
            if let limit = DescriptorLimit.raise(toAtMost: wanted), limit < wanted {
                logger.warning(
                    """
                    open files are limited to \(limit), below --max-connections \(settings.maximumConnections) + 512: \
                    raise the hard limit (ulimit -Hn) to serve that many
                    """)
            }
            server = try await Server.start(settings, logger: logger)
        } catch {
            throw ServeError(
                description:
                    "cannot serve on \(settings.host):\(settings.port) with database \(database): \(error)"
            )
        }
        StopSignal.install { Task { await server.stop() } }
        announce("listening on \(settings.tls == nil ? "" : "tls://")\(settings.host):\(server.port)")
        if let httpPort = server.httpPort {
            announce("web on \(settings.tls == nil ? "http" : "https")://\(settings.httpHost):\(httpPort)/")
        }
        await server.waitUntilStopped()
    }
}

/// The server could not start: one line for the operator.
public struct ServeError: Error, CustomStringConvertible {
    public let description: String
}
