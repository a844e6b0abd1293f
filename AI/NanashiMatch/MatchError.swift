/// A match that cannot go on: a bad engine name or option, an engine that will not start or
/// breaks the protocol, an unreadable openings file. The description is one line for people.
public struct MatchError: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
