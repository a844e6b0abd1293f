import NIOHTTP1

/// Why a WebSocket handshake on the HTTP port is not upgraded; it is answered as a page then.
package enum HandshakeRefusal: Sendable, Equatable {
    /// Elsewhere than `/ws`, on a port without WebSockets, or not a valid handshake (404).
    case elsewhere
    /// From a page of another site (403, `WebSocketOrigin`).
    case foreignOrigin
    /// With a request body (400): NIO fails such an upgrade half way, so it is never begun.
    case carriesBody

    /// Why `head` is refused, or `nil` to upgrade it. `webSockets`: whether the port upgrades at
    /// all; `allowedOrigins`: the origins let in besides the server's own; `publicHosts`: the
    /// names the server is reached by; `secure`: whether the port serves TLS.
    package init?(
        _ head: HTTPRequestHead, webSockets: Bool, allowedOrigins: [String], publicHosts: [String] = [],
        secure: Bool = false
    ) {
        let path = head.uri.split(separator: "?", maxSplits: 1).first ?? ""
        let allowed = WebSocketOrigin.isAllowed(
            origin: head.headers.first(name: "Origin"), host: head.headers.first(name: "Host"),
            allowed: allowedOrigins, publicHosts: publicHosts, secure: secure)
        let length = head.headers[canonicalForm: "content-length"]
        if !allowed {
            self = .foreignOrigin
        } else if !webSockets || path != "/ws" {
            self = .elsewhere
        } else if head.headers.contains(name: "transfer-encoding") || length.contains(where: { $0 != "0" }) {
            self = .carriesBody
        } else {
            return nil
        }
    }
}
