/// What a player in a game may offer their opponent, who accepts it by offering the same.
///
/// `draw`: end the game drawn by agreement. On the wire the kind names the messages: a player
/// sends `{"type":"draw","game":G}` (to offer, or to accept the opponent's offer) and
/// `{"type":"decline_draw","game":G}`; the server sends `draw_offered` (to the player who
/// offered), `draw_offer` (to their opponent) and `draw_declined` (to both).
public enum Offer: String, Hashable, Sendable, CaseIterable, Codable {
    case draw

    /// The type of the message that declines it.
    public var declineType: String { "decline_\(rawValue)" }
    /// The type of the message that tells the player who offered that it went to their opponent.
    public var offeredType: String { "\(rawValue)_offered" }
    /// The type of the message that tells the opponent of the offer.
    public var offerType: String { "\(rawValue)_offer" }
    /// The type of the message that tells both players that the offer was declined.
    public var declinedType: String { "\(rawValue)_declined" }
}
