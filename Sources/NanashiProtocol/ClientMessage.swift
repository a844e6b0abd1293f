import NanashiCore

/// A message from a client to the server: the `"type"` and its fields.
public enum ClientMessage: Hashable, Sendable {
    /// `register`: create an account and log in.
    case register(Credentials)
    /// `login`: log in with a password; the reply carries a new token.
    case login(Credentials)
    /// `reset_password`: set a new password with the one-time token a moderator gave
    /// (`nanashi admin reset-password`), and log in.
    case resetPassword(Credentials, token: String)
    /// `auth`: resume the session of a token (how a client reconnects).
    case auth(token: String)
    /// `logout`: end the session; its token stops working. `everywhere`: every token of the
    /// player stops working, and every connection on one is closed.
    case logout(everywhere: Bool)
    /// `seek`: look for an opponent at a time control, from a layout (paired only with a seek
    /// of the same layout).
    case seek(TimeControl, layout: Layout = .standard)
    /// `seek` with `ai`: play the built-in engine at once (unrated), from any start.
    case seekEngine(EngineSeek)
    /// `cancel`: stop seeking.
    case cancel
    /// `move`: play a move (`f2`, `a7c5`, or `0000` when forced to pass) in a game.
    case move(game: Int64, move: String)
    /// `resign`: give up a game.
    case resign(game: Int64)
    /// `leaderboard`: a page of the rated players, best first.
    case leaderboard(limit: Int, offset: Int)
    /// `profile`: one player's record and recent games.
    case profile(name: String)
    /// `ping`: answered by `pong`.
    case ping
    /// `live`: the games in progress, highest-rated first.
    case live
    /// `watch`: follow a game in progress (no login needed).
    case watch(game: Int64)
    /// `unwatch`: stop following a game.
    case unwatch(game: Int64)
    /// `games`: a page of a player's finished games, newest first, from before game `before`.
    case games(name: String, before: Int64?, limit: Int)
    /// `pgn`: one finished game as PGN.
    case pgn(game: Int64)
    /// `rematch`: offer (or accept) a new game against the opponent of a game that has ended.
    case rematch(game: Int64)
    /// `analyse`: the engine's evaluation of every position of a finished game.
    case analyse(game: Int64)
    /// `draw`: offer the opponent a draw in a game in progress, or accept theirs.
    case offer(Offer, game: Int64)
    /// `decline_draw`: decline the opponent's standing offer.
    case decline(Offer, game: Int64)
    /// `challenge`: ask one player for a game on these terms; without `to`, whoever opens its
    /// link first (`challenge_sent` carries it).
    case challenge(to: String?, terms: ChallengeTerms)
    /// `accept`: take up a challenge; the game starts at once.
    case accept(challenge: String)
    /// `decline`: turn a challenge down, saying why if one likes (at most 120 bytes).
    case declineChallenge(challenge: String, reason: String?)
    /// `cancel_challenge`: take back one's own challenge.
    case cancelChallenge(challenge: String)
    /// `challenges`: take challenges (`true`, as at login) or refuse them all (`false`).
    case challenges(accept: Bool)
    /// `layouts`: the named starting positions, answered by `layouts`.
    case layouts
    /// `levels`: the engine's levels, each with its strength, answered by `levels`.
    case levels

    /// A name and password, for `register` and `login`.
    public struct Credentials: Hashable, Sendable, Codable {
        public var name: String
        public var password: String

        public init(name: String, password: String) {
            self.name = name
            self.password = password
        }
    }

    /// The default page size of `leaderboard`.
    public static let defaultLeaderboardLimit = 20
    /// The largest page `leaderboard` returns.
    public static let maximumLeaderboardLimit = 100
    /// The default page size of `games`.
    public static let defaultArchiveLimit = 20
    /// The largest page `games` returns; a larger `limit` is taken as this.
    public static let maximumArchiveLimit = 100

    /// The wire name of the message, its `"type"`.
    public var type: String {
        switch self {
        case .register: "register"
        case .login: "login"
        case .resetPassword: "reset_password"
        case .auth: "auth"
        case .logout: "logout"
        case .seek, .seekEngine: "seek"
        case .cancel: "cancel"
        case .move: "move"
        case .resign: "resign"
        case .leaderboard: "leaderboard"
        case .profile: "profile"
        case .ping: "ping"
        case .live: "live"
        case .watch: "watch"
        case .unwatch: "unwatch"
        case .games: "games"
        case .pgn: "pgn"
        case .rematch: "rematch"
        case .analyse: "analyse"
        case .offer(let offer, _): offer.rawValue
        case .decline(let offer, _): offer.declineType
        case .challenge: "challenge"
        case .accept: "accept"
        case .declineChallenge: "decline"
        case .cancelChallenge: "cancel_challenge"
        case .challenges: "challenges"
        case .layouts: "layouts"
        case .levels: "levels"
        }
    }
}

extension ClientMessage: WireMessage {
    private enum Keys: String, CodingKey {
        case token, game, move, limit, offset, name, before, ai, color, everywhere
        case to, rated, layout, fen, challenge, reason, accept
    }

    /// The longest reason a `decline` may give, in bytes.
    public static let longestReason = 120

    /// A string id is at most `RequestID.longestText` bytes of printable text.
    public static func check(_ id: RequestID?) throws {
        if case .string(let text)? = id, !RequestID.isAcceptable(text) { throw RequestID.unacceptable }
    }

    public init(type: String, from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch type {
        case "register": self = .register(try ClientMessage.Credentials(from: decoder))
        case "login": self = .login(try ClientMessage.Credentials(from: decoder))
        case "reset_password":
            self = .resetPassword(
                try ClientMessage.Credentials(from: decoder),
                token: try container.decode(String.self, forKey: .token))
        case "auth": self = .auth(token: try container.decode(String.self, forKey: .token))
        case "logout":
            self = .logout(
                everywhere: try container.decodeIfPresent(Bool.self, forKey: .everywhere) ?? false)
        case "seek":
            let control = try TimeControl(from: decoder)
            if let level = try container.decodeIfPresent(Int.self, forKey: .ai) {
                let layout = try container.decodeIfPresent(String.self, forKey: .layout)
                let fen = try container.decodeIfPresent(String.self, forKey: .fen)
                if layout != nil, fen != nil {
                    throw ProtocolError(.badRequest, "a seek names a layout or a fen, not both")
                }
                self = .seekEngine(
                    EngineSeek(
                        level: level, color: try container.decodeIfPresent(Side.self, forKey: .color),
                        control: control, layout: try layout.map(Layout.wire(named:)) ?? .standard,
                        custom: try fen.map(Position.wire(startingAt:))))
            } else {
                guard !container.contains(.fen) else {
                    throw ProtocolError(
                        .badRequest,
                        "a seek for a person starts from a layout; a fen is for challenges and ai")
                }
                self = .seek(
                    control,
                    layout: try container.decodeIfPresent(String.self, forKey: .layout).map(
                        Layout.wire(named:))
                        ?? .standard)
            }
        case "cancel": self = .cancel
        case "move":
            self = .move(
                game: try container.decode(Int64.self, forKey: .game),
                move: try container.decode(String.self, forKey: .move))
        case "resign": self = .resign(game: try container.decode(Int64.self, forKey: .game))
        case "leaderboard":
            self = .leaderboard(
                limit: try container.decodeIfPresent(Int.self, forKey: .limit)
                    ?? ClientMessage.defaultLeaderboardLimit,
                offset: try container.decodeIfPresent(Int.self, forKey: .offset) ?? 0)
        case "profile": self = .profile(name: try container.decode(String.self, forKey: .name))
        case "ping": self = .ping
        case "live": self = .live
        case "watch": self = .watch(game: try container.decode(Int64.self, forKey: .game))
        case "unwatch": self = .unwatch(game: try container.decode(Int64.self, forKey: .game))
        case "games":
            self = .games(
                name: try container.decode(String.self, forKey: .name),
                before: try container.decodeIfPresent(Int64.self, forKey: .before),
                limit: try container.decodeIfPresent(Int.self, forKey: .limit)
                    ?? ClientMessage.defaultArchiveLimit)
        case "pgn": self = .pgn(game: try container.decode(Int64.self, forKey: .game))
        case "rematch": self = .rematch(game: try container.decode(Int64.self, forKey: .game))
        case "analyse": self = .analyse(game: try container.decode(Int64.self, forKey: .game))
        case "challenge":
            self = .challenge(
                to: try container.decodeIfPresent(String.self, forKey: .to),
                terms: try ChallengeTerms(challengeFrom: decoder))
        case "accept": self = .accept(challenge: try container.decode(String.self, forKey: .challenge))
        case "decline":
            let reason = try container.decodeIfPresent(String.self, forKey: .reason)
            if let reason,
                reason.utf8.count > Self.longestReason
                    || reason.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            {
                throw ProtocolError(
                    .badRequest, "a reason is at most \(Self.longestReason) bytes, without control characters"
                )
            }
            self = .declineChallenge(
                challenge: try container.decode(String.self, forKey: .challenge), reason: reason)
        case "cancel_challenge":
            self = .cancelChallenge(challenge: try container.decode(String.self, forKey: .challenge))
        case "challenges": self = .challenges(accept: try container.decode(Bool.self, forKey: .accept))
        case "layouts": self = .layouts
        case "levels": self = .levels
        default:
            // An offer's messages are named by its kind.
            if let offer = Offer.named(type, as: \.rawValue) {
                self = .offer(offer, game: try container.decode(Int64.self, forKey: .game))
            } else if let offer = Offer.named(type, as: \.declineType) {
                self = .decline(offer, game: try container.decode(Int64.self, forKey: .game))
            } else {
                throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(40))'")
            }
        }
    }

    public func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .register(let credentials), .login(let credentials): try credentials.encode(to: encoder)
        case .resetPassword(let credentials, let token):
            try credentials.encode(to: encoder)
            try container.encode(token, forKey: .token)
        case .auth(let token): try container.encode(token, forKey: .token)
        case .seek(let control, let layout):
            try control.encode(to: encoder)
            if !layout.isStandard { try container.encode(layout.name, forKey: .layout) }
        case .seekEngine(let seek):
            try seek.control.encode(to: encoder)
            try container.encode(seek.level, forKey: .ai)
            try container.encodeIfPresent(seek.color, forKey: .color)
            if let custom = seek.custom {
                try container.encode(custom.fen, forKey: .fen)
            } else if !seek.layout.isStandard {
                try container.encode(seek.layout.name, forKey: .layout)
            }
        case .move(let game, let move):
            try container.encode(game, forKey: .game)
            try container.encode(move, forKey: .move)
        case .resign(let game), .watch(let game), .unwatch(let game), .pgn(let game), .rematch(let game),
            .analyse(let game), .offer(_, let game), .decline(_, let game):
            try container.encode(game, forKey: .game)
        case .games(let name, let before, let limit):
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(before, forKey: .before)
            try container.encode(limit, forKey: .limit)
        case .leaderboard(let limit, let offset):
            try container.encode(limit, forKey: .limit)
            try container.encode(offset, forKey: .offset)
        case .profile(let name): try container.encode(name, forKey: .name)
        case .logout(let everywhere): if everywhere { try container.encode(true, forKey: .everywhere) }
        case .challenge(let to, let terms):
            try container.encodeIfPresent(to, forKey: .to)
            try terms.encode(to: encoder, side: terms.challengerSide)
        case .accept(let challenge), .cancelChallenge(let challenge):
            try container.encode(challenge, forKey: .challenge)
        case .declineChallenge(let challenge, let reason):
            try container.encode(challenge, forKey: .challenge)
            try container.encodeIfPresent(reason, forKey: .reason)
        case .challenges(let accept): try container.encode(accept, forKey: .accept)
        case .cancel, .ping, .live, .layouts, .levels: break
        }
    }
}
