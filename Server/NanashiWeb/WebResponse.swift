/// What the web layer answers: a status, headers and a body.
public struct WebResponse: Hashable, Sendable {
    public var status: Int
    /// Header fields besides the length, in order: the content type first.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers.map { (name: $0.0, value: $0.1) }
        self.body = body
    }

    /// The value of a header field, by name ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    static func html(_ page: String, status: Int = 200) -> WebResponse {
        WebResponse(
            status: status, contentType: "text/html; charset=utf-8", body: Array(page.utf8),
            headers: securityHeaders + [("Cache-Control", "no-store")])
    }

    static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8")
        -> WebResponse
    {
        WebResponse(
            status: status, contentType: contentType, body: Array(text.utf8), headers: securityHeaders)
    }

    static func redirect(to location: String) -> WebResponse {
        WebResponse(
            status: 303, contentType: "text/plain; charset=utf-8", body: Array("see \(location)\n".utf8),
            headers: [("Location", location)])
    }

    /// Nothing but this server's own files runs or loads on its pages, and no other site frames them.
    static let securityHeaders: [(String, String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    public static func == (lhs: WebResponse, rhs: WebResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}
