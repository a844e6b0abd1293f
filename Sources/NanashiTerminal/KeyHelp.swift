/// The line under the board saying which keys do what: whole where the window is wide enough,
/// and a shorter form otherwise, so that a narrow window still shows how to get help rather
/// than the start of a sentence cut at its edge.
public struct KeyHelp: Hashable, Sendable, ExpressibleByStringLiteral {
    public var full: String
    public var short: String

    public init(_ full: String, short: String? = nil) {
        self.full = full
        self.short = short ?? full
    }

    public init(stringLiteral full: String) {
        self.init(full)
    }

    /// The form for a window `width` columns wide.
    public func line(width: Int) -> String {
        Frame.width(of: full) <= width ? full : short
    }
}
