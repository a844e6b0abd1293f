/// Whether a WebSocket handshake may go on, judged by its `Origin` and `Host`: a browser sends
/// the origin of the page that opens the socket, so a page of another site (which could try
/// logins from its visitors' addresses) is refused unless the server names it
/// (`--allow-origin`). A page whose name was rebound to this server's address (DNS rebinding)
/// sends its own name as `Host` too: only the hosts the server names (`--public-host`, and
/// those of `--allow-origin`) or an address written as such (`localhost`, `127.0.0.1`, `[::1]`)
/// are taken as the server's own. Clients that are not browsers send no `Origin` and are let in.
package enum WebSocketOrigin {
    /// - Parameters:
    ///   - origin: the handshake's `Origin` header, if any (`https://example.org:8443`).
    ///   - host: its `Host` header (`example.org:8443`), the host the page was served from.
    ///   - allowed: the origins let in besides the server's own, as `--allow-origin` gives them.
    ///   - publicHosts: the names the server is reached by, as `--public-host` gives them
    ///     (`example.org`, `example.org:8443`).
    ///   - secure: whether the port serves TLS: the server's own pages are `https` then, else `http`.
    package static func isAllowed(
        origin: String?, host: String?, allowed: [String], publicHosts: [String] = [], secure: Bool = false
    ) -> Bool {
        guard let origin else { return true }
        let given = normalized(origin)
        if allowed.contains(where: { normalized($0) == given }) { return true }
        guard let host = host?.lowercased(), isOwn(host, allowed: allowed, publicHosts: publicHosts) else {
            return false
        }
        return given == (secure ? "https://" : "http://") + host
    }

    /// Whether `host` (a `Host` header, lowercased) names this server: one of the named hosts
    /// (with or without its port), or an address no one can rebind.
    private static func isOwn(_ host: String, allowed: [String], publicHosts: [String]) -> Bool {
        let name = hostName(host)
        let named = publicHosts.map { normalized($0) } + allowed.compactMap(originHost)
        if named.contains(where: { $0 == host || $0 == name }) { return true }
        return isAddress(name)
    }

    /// `localhost`, or an IPv4 or bracketed IPv6 address: a name that DNS does not give.
    private static func isAddress(_ name: String) -> Bool {
        if name == "localhost" || (name.hasPrefix("[") && name.hasSuffix("]")) { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }

    /// A `Host` header's name without its port.
    private static func hostName(_ host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// The host (and port) of an origin, `nil` for one not well formed.
    private static func originHost(_ origin: String) -> String? {
        let text = normalized(origin)
        guard let schemeEnd = text.range(of: "://") else { return nil }
        return String(text[schemeEnd.upperBound...])
    }

    /// Whether `origin` is written as browsers send one: `http://` or `https://` and a host
    /// (with a port, perhaps), nothing else.
    package static func isWellFormed(_ origin: String) -> Bool {
        let text = normalized(origin)
        guard let schemeEnd = text.range(of: "://"),
            ["http", "https"].contains(text[..<schemeEnd.lowerBound])
        else { return false }
        let host = text[schemeEnd.upperBound...]
        return !host.isEmpty && !host.contains("/") && !host.contains(" ")
    }

    /// Whether `host` is written as `--public-host` takes one: a name or address, perhaps with
    /// a port, and nothing else.
    package static func isWellFormedHost(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255
            && host.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0.value < 0x7F && !"/@?#\\".unicodeScalars.contains($0)
            }
    }

    private static func normalized(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
