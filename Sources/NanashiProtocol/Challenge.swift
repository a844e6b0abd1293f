import NanashiCore

/// The terms of a challenge to a game: the time control, the colours and whether it is rated.
///
/// On the wire its fields sit in the message beside the others: `"initial"`, `"increment"`,
/// `"color"` (the side of whoever the message goes to: `"x"`, `"o"` or `"random"`) and
/// `"rated"`.
public struct ChallengeTerms: Hashable, Sendable {
    public var control: TimeControl
    /// The challenger's side; `nil`: drawn at random when the game starts.
    public var challengerSide: Side?
    /// Whether the result changes ratings (a casual game's never does).
    public var rated: Bool

    public init(control: TimeControl, challengerSide: Side? = nil, rated: Bool = true) {
        self.control = control
        self.challengerSide = challengerSide
        self.rated = rated
    }

    /// The side of the one challenged.
    public var challengedSide: Side? { challengerSide?.opponent }
}

/// A colour as a challenge names it: a side, or `"random"`.
enum ChallengeColor {
    static func text(_ side: Side?) -> String { side?.rawValue ?? "random" }

    /// - Throws: `ProtocolError` `bad_request` for anything but `x`, `o` or `random`.
    static func side(_ text: String?) throws(ProtocolError) -> Side? {
        switch text {
        case nil, "random": return nil
        case let text?:
            guard let side = Side(rawValue: text) else {
                throw ProtocolError(.badRequest, "color is x, o or random")
            }
            return side
        }
    }
}

/// `challenge_sent` (to the challenger) and `challenged` (to the one challenged): a challenge
/// that stands, and the terms as its recipient plays them.
public struct ChallengeNotice: Hashable, Sendable {
    public var challenge: String
    /// The other player: the one challenged (`challenge_sent`; `nil` for a challenge by link,
    /// open to whoever opens it) or the challenger (`challenged`).
    public var player: String?
    /// The other player's rating.
    public var rating: Int?
    public var terms: ChallengeTerms
    /// A challenge by link: the path of its page on the server's web port (`/challenge/ID`).
    public var link: String?

    public init(challenge: String, player: String?, rating: Int?, terms: ChallengeTerms, link: String? = nil)
    {
        self.challenge = challenge
        self.player = player
        self.rating = rating
        self.terms = terms
        self.link = link
    }
}

/// Why a challenge ended without a game (`challenge_cancelled`).
public enum ChallengeEnd: String, Hashable, Sendable, Codable {
    /// The challenger took it back.
    case withdrawn
    /// Nobody answered it in time.
    case expired
    /// The challenger logged out, or was superseded.
    case left
}
