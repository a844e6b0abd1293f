/// Whether a WebSocket handshake may go on, judged by its `Origin`: a browser sends the origin
/// of the page that opens the socket, so a page of another site (which could try logins from
/// its visitors' addresses) is refused unless the server names it (`--allow-origin`). Clients
/// that are not browsers send no `Origin` and are let in.
enum WebSocketOrigin {
    /// - Parameters:
    ///   - origin: the handshake's `Origin` header, if any (`https://example.org:8443`).
    ///   - host: its `Host` header (`example.org:8443`), the host the page was served from.
    ///   - allowed: the origins let in besides the server's own, as `--allow-origin` gives them.
    static func isAllowed(origin: String?, host: String?, allowed: [String]) -> Bool {
        guard let origin else { return true }
        let given = normalized(origin)
        if allowed.contains(where: { normalized($0) == given }) { return true }
        guard let host, let schemeEnd = given.range(of: "://") else { return false }
        return given[schemeEnd.upperBound...] == host.lowercased()
    }

    /// Whether `origin` is written as browsers send one: `http://` or `https://` and a host
    /// (with a port, perhaps), nothing else.
    static func isWellFormed(_ origin: String) -> Bool {
        let text = normalized(origin)
        guard let schemeEnd = text.range(of: "://"),
            ["http", "https"].contains(text[..<schemeEnd.lowerBound])
        else { return false }
        let host = text[schemeEnd.upperBound...]
        return !host.isEmpty && !host.contains("/") && !host.contains(" ")
    }

    private static func normalized(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
