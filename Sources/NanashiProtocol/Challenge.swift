import NanashiCore

/// The terms of a challenge to a game: the time control, the colours, whether it is rated and
/// where it starts.
///
/// On the wire its fields sit in the message beside the others: `"initial"`, `"increment"`,
/// `"color"` (the side of whoever the message goes to: `"x"`, `"o"` or `"random"`), `"rated"`,
/// and `"layout"` (a layout's name, left out for the standard start) or `"fen"` (a position
/// of one's own: always casual).
public struct ChallengeTerms: Hashable, Sendable {
    public var control: TimeControl
    /// The challenger's side; `nil`: drawn at random when the game starts.
    public var challengerSide: Side?
    /// Whether the result changes ratings (a casual game's never does).
    public var rated: Bool
    /// The named start; ignored when `custom` is given.
    public var layout: Layout
    /// A start of the challenger's own (checked by `Position(startingAt:)`), or `nil`.
    public var custom: Position?

    public init(
        control: TimeControl, challengerSide: Side? = nil, rated: Bool = true, layout: Layout = .standard,
        custom: Position? = nil
    ) {
        self.control = control
        self.challengerSide = challengerSide
        self.rated = rated && custom == nil
        self.layout = layout
        self.custom = custom
    }

    /// The side of the one challenged.
    public var challengedSide: Side? { challengerSide?.opponent }

    /// The position the game starts from.
    public var start: Position { custom ?? layout.position }
}

extension ChallengeTerms {
    private enum Keys: String, CodingKey { case color, rated, layout, fen }

    /// The terms as a `challenge` gives them, the colour the challenger's.
    ///
    /// - Throws: `ProtocolError` `bad_request` for a bad colour, an unknown layout, a custom `fen`
    ///   the core refuses (with its reason), both a layout and a fen, or a rated custom fen.
    init(challengeFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let rated = try container.decodeIfPresent(Bool.self, forKey: .rated)
        let layout = try container.decodeIfPresent(String.self, forKey: .layout)
        let fen = try container.decodeIfPresent(String.self, forKey: .fen)
        if layout != nil, fen != nil {
            throw ProtocolError(.badRequest, "a challenge names a layout or a fen, not both")
        }
        if fen != nil, rated == true {
            throw ProtocolError(.badRequest, "a game from a fen of one's own is casual: leave rated out")
        }
        self.init(
            control: try TimeControl(from: decoder),
            challengerSide: try ChallengeColor.side(container.decodeIfPresent(String.self, forKey: .color)),
            rated: rated ?? true, layout: try layout.map(Layout.wire(named:)) ?? .standard,
            custom: try fen.map(Position.wire(startingAt:)))
    }

    /// The terms as a notice reads them back (`challenge_sent`, `challenged`), `side` the
    /// challenger's.
    init(noticeFrom decoder: any Decoder, challengerSide side: Side?) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        self.init(
            control: try TimeControl(from: decoder), challengerSide: side,
            rated: try container.decode(Bool.self, forKey: .rated),
            layout: try container.decodeIfPresent(String.self, forKey: .layout).map(Layout.wire(named:))
                ?? .standard,
            custom: try container.decodeIfPresent(String.self, forKey: .fen).map(Position.wire(startingAt:)))
    }

    /// Writes the terms' fields, `side` the receiver's colour.
    func encode(to encoder: any Encoder, side: Side?) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try control.encode(to: encoder)
        try container.encode(ChallengeColor.text(side), forKey: .color)
        try container.encode(rated, forKey: .rated)
        if let custom {
            try container.encode(custom.fen, forKey: .fen)
        } else if !layout.isStandard {
            try container.encode(layout.name, forKey: .layout)
        }
    }
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
