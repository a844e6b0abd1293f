import NanashiCore

/// One starting position as `layouts` lists it: its name and FEN.
public struct LayoutEntry: Hashable, Sendable, Codable {
    public var name: String
    public var fen: String

    public init(name: String, fen: String) {
        self.name = name
        self.fen = fen
    }

    public init(_ layout: Layout) {
        self.init(name: layout.name, fen: layout.fen)
    }

    /// Every layout the server knows, in order: the reply to `layouts`.
    public static var all: [LayoutEntry] { Layout.all.map(LayoutEntry.init) }
}

extension Layout {
    /// The layout a message names.
    ///
    /// - Throws: `ProtocolError` `bad_request` for a name of no layout.
    public static func wire(named name: String) throws(ProtocolError) -> Layout {
        guard let layout = Layout.named(name) else {
            throw ProtocolError(
                .badRequest, "no layout is named '\(name.prefix(40))'; {\"type\":\"layouts\"} lists them")
        }
        return layout
    }
}

extension Position {
    /// The position a message's custom `fen` names, checked by the core.
    ///
    /// - Throws: `ProtocolError` `bad_request` with the core's reason.
    static func wire(startingAt fen: String) throws(ProtocolError) -> Position {
        do {
            return try Position(startingAt: fen)
        } catch {
            throw ProtocolError(.badRequest, error.description)
        }
    }
}
