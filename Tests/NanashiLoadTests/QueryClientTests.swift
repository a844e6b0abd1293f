import Foundation
import NanashiClient
import Testing

@testable import NanashiLoad

#if canImport(Glibc)
    import Glibc
#endif

/// A listener on 127.0.0.1 that closes every connection as soon as it accepts it, as a TLS
/// server does with a client that refuses its certificate.
private final class HangingUpListener: @unchecked Sendable {
    private let socket: Int32
    let port: Int

    init() throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socket = socket
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 8) == 0
                    && getsockname(socket, $0, &length) == 0
            }
        }
        try #require(bound, "could not listen on 127.0.0.1")
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while case let connection = accept(socket, nil, nil), connection >= 0 { close(connection) }
        }
    }

    /// Stops listening; the accepting thread ends with it.
    func stop() { shutdown(socket, Int32(SHUT_RDWR)) }
}

@Test
func aQueryRunAgainstAServerThatHangsUpIsAnErrorNotAWait() async throws {
    let listener = try HangingUpListener()
    defer { listener.stop() }
    var settings = QueryTestSettings(
        servers: ServerList(ServerAddress(host: "127.0.0.1", port: listener.port)))
    settings.queries = 1
    // Connected, then closed before the first question: the question fails instead of waiting
    // for an answer on a connection that is gone.
    await #expect(throws: QueryTestError.self) { try await QueryTest.run(settings) }
}
