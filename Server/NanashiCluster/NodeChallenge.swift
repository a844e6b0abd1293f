import NanashiCore

/// A challenge as nodes tell each other of it: every node keeps every challenge, so that each
/// tells its own players and applies the same limits.
package struct NodeChallenge: Codable, Sendable, Equatable {
    package var id: String
    package var fromID: Int64
    package var fromName: String
    package var fromRating: Int
    /// The one challenged; `nil` for a challenge by link.
    package var toID: Int64?
    package var toName: String?
    package var toRating: Int?
    package var initial: Int
    package var increment: Int
    /// The challenger's side; `nil`: drawn at random.
    package var challengerSide: Side?
    package var rated: Bool
    /// The layout the game starts from, by name (`nil`: the standard start).
    package var layout: String? = nil
    /// A start of the challenger's own, in FEN (`nil`: none; then `layout`).
    package var fen: String? = nil

    package init(
        id: String, fromID: Int64, fromName: String, fromRating: Int, toID: Int64?, toName: String?,
        toRating: Int?,
        initial: Int, increment: Int, challengerSide: Side?, rated: Bool
    ) {
        self.id = id
        self.fromID = fromID
        self.fromName = fromName
        self.fromRating = fromRating
        self.toID = toID
        self.toName = toName
        self.toRating = toRating
        self.initial = initial
        self.increment = increment
        self.challengerSide = challengerSide
        self.rated = rated
    }
}
