import NanashiCore

/// A message from the server to a client: the `"type"` and its fields.
public enum ServerMessage: Hashable, Sendable {
    /// `welcome`: logged in (after `register`, `login` or `auth`).
    case welcome(Welcome)
    /// `bye`: logged out.
    case bye
    /// `seeking`: the seek is in the pool.
    case seeking
    /// `cancelled`: the player is no longer seeking.
    case cancelled
    /// `start`: a game begins; sent to both players.
    case start(GameStart)
    /// `moved`: a move was accepted; sent to both players.
    case moved(Moved)
    /// `game`: the whole state of a game in progress, sent when a player logs back in.
    case game(GameState)
    /// `end`: the game is over; each player gets their own rating change.
    case end(GameEnd)
    /// `error`: the request was refused and changed nothing.
    case error(ProtocolError)
    /// `leaderboard`: a page of rated players, best first.
    case leaderboard(Leaderboard)
    /// `profile`: one player's record.
    case profile(Profile)
    /// `pong`: the answer to `ping`.
    case pong
    /// `shutdown`: the server is stopping; it closes the connection once its queued replies are
    /// written. Games in progress resume when it is back.
    case shutdown
    /// `superseded`: the player logged in on another connection; the server closes this one.
    /// Reconnecting would only supersede the other in turn.
    case superseded
    /// `live`: the games in progress, highest-rated first.
    case live([LiveGame])
    /// `game` as a watcher gets it: the game as it stands, both players, no `color`.
    case watching(WatchedGame)
    /// `end` as a watcher gets it: the result, no rating change.
    case watchedEnd(WatchedEnd)
    /// `unwatched`: the connection no longer follows the game.
    case unwatched(game: Int64)
    /// `games`: a page of a player's finished games.
    case games(GameArchive)
    /// `pgn`: a finished game as PGN.
    case pgn(GamePGN)
    /// `rematch_offered`: the offer went to the opponent; a `start` follows if they accept.
    case rematchOffered(game: Int64)
    /// `rematch_offer`: the opponent of a game that has ended offers a rematch.
    case rematchOffer(game: Int64)
    /// `rematch_declined`: the rematch offer lapsed (after 60 s, or because either player
    /// sought, watched or left); no game starts.
    case rematchDeclined(game: Int64)
    /// `analysis`: the engine's evaluation of every position of a finished game.
    case analysis(GameAnalysis)
    /// `draw_offered`: the offer went to the opponent (who accepts by offering the same).
    case offered(Offer, game: Int64)
    /// `draw_offer`: the opponent offers a draw; it stands until declined, accepted, or until
    /// the player offered moves.
    case offerMade(Offer, game: Int64)
    /// `draw_declined`: the offer was declined; both players are told.
    case declined(Offer, game: Int64)
    /// `challenge_sent`: the challenge stands (`player` is the one challenged); a `start`
    /// follows if they accept.
    case challengeSent(ChallengeNotice)
    /// `challenged`: a player (`player`) challenges this one; `accept` or `decline` it.
    case challenged(ChallengeNotice)
    /// `challenge_declined`: the one challenged turned it down, perhaps saying why.
    case challengeDeclined(challenge: String, reason: String?)
    /// `challenge_cancelled`: the challenge ended without a game: withdrawn, expired, or its
    /// challenger left.
    case challengeCancelled(challenge: String, reason: ChallengeEnd)
    /// `challenges`: whether this session takes challenges from now on.
    case challenges(accept: Bool)
    /// `layouts`: the named starting positions, each with its FEN.
    case layouts([LayoutEntry])
    /// `levels`: the engine's levels, each with its strength on one Elo scale.
    case levels([LevelEntry])

    /// The wire name of the message, its `"type"`.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .bye: "bye"
        case .seeking: "seeking"
        case .cancelled: "cancelled"
        case .start: "start"
        case .moved: "moved"
        case .game: "game"
        case .end: "end"
        case .error: "error"
        case .leaderboard: "leaderboard"
        case .profile: "profile"
        case .pong: "pong"
        case .shutdown: "shutdown"
        case .superseded: "superseded"
        case .live: "live"
        case .watching: "game"
        case .watchedEnd: "end"
        case .unwatched: "unwatched"
        case .games: "games"
        case .pgn: "pgn"
        case .rematchOffered: "rematch_offered"
        case .rematchOffer: "rematch_offer"
        case .rematchDeclined: "rematch_declined"
        case .analysis: "analysis"
        case .offered(let offer, _): offer.offeredType
        case .offerMade(let offer, _): offer.offerType
        case .declined(let offer, _): offer.declinedType
        case .challengeSent: "challenge_sent"
        case .challenged: "challenged"
        case .challengeDeclined: "challenge_declined"
        case .challengeCancelled: "challenge_cancelled"
        case .challenges: "challenges"
        case .layouts: "layouts"
        case .levels: "levels"
        }
    }
}

/// The fields of `welcome`: who is logged in, their session token and rating.
public struct Welcome: Hashable, Sendable {
    public var name: String
    /// The session token, base64url; send it in `auth` to resume the session.
    public var token: String
    public var rating: Int
    public var rd: Int
    public var games: Int
    /// Whether the player takes challenges, as stored (`challenges` sets it). Written only
    /// when they refuse them (`"challenges":false`): left out, they take them.
    public var acceptsChallenges: Bool

    public init(name: String, token: String, rating: Int, rd: Int, games: Int, acceptsChallenges: Bool = true)
    {
        self.name = name
        self.token = token
        self.rating = rating
        self.rd = rd
        self.games = games
        self.acceptsChallenges = acceptsChallenges
    }
}

extension Welcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, token, rating, rd, games
        case acceptsChallenges = "challenges"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        token = try container.decode(String.self, forKey: .token)
        rating = try container.decode(Int.self, forKey: .rating)
        rd = try container.decode(Int.self, forKey: .rd)
        games = try container.decode(Int.self, forKey: .games)
        acceptsChallenges = try container.decodeIfPresent(Bool.self, forKey: .acceptsChallenges) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(token, forKey: .token)
        try container.encode(rating, forKey: .rating)
        try container.encode(rd, forKey: .rd)
        try container.encode(games, forKey: .games)
        if !acceptsChallenges { try container.encode(false, forKey: .acceptsChallenges) }
    }
}

extension ServerMessage: WireMessage {
    private enum Keys: String, CodingKey {
        case game, games, color, rating, challenge, to, from, rated, reason, accept, link, layouts, levels
    }

    public init(type: String, from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        switch type {
        case "welcome": self = .welcome(try Welcome(from: decoder))
        case "bye": self = .bye
        case "seeking": self = .seeking
        case "cancelled": self = .cancelled
        case "start": self = .start(try GameStart(from: decoder))
        case "moved": self = .moved(try Moved(from: decoder))
        // A watcher's `game` has no colour (or a null one), and its `end` no rating change.
        case "game":
            self =
                try container.decodeIfPresent(Side.self, forKey: .color) == nil
                ? .watching(try WatchedGame(from: decoder)) : .game(try GameState(from: decoder))
        case "end":
            self =
                container.contains(.rating)
                ? .end(try GameEnd(from: decoder)) : .watchedEnd(try WatchedEnd(from: decoder))
        case "error": self = .error(try ProtocolError(from: decoder))
        case "leaderboard": self = .leaderboard(try Leaderboard(from: decoder))
        case "profile": self = .profile(try Profile(from: decoder))
        case "pong": self = .pong
        case "shutdown": self = .shutdown
        case "superseded": self = .superseded
        case "live": self = .live(try container.decode([LiveGame].self, forKey: .games))
        case "unwatched": self = .unwatched(game: try container.decode(Int64.self, forKey: .game))
        case "games": self = .games(try GameArchive(from: decoder))
        case "pgn": self = .pgn(try GamePGN(from: decoder))
        case "rematch_offered":
            self = .rematchOffered(game: try container.decode(Int64.self, forKey: .game))
        case "rematch_offer": self = .rematchOffer(game: try container.decode(Int64.self, forKey: .game))
        case "rematch_declined":
            self = .rematchDeclined(game: try container.decode(Int64.self, forKey: .game))
        case "analysis": self = .analysis(try GameAnalysis(from: decoder))
        case "challenge_sent", "challenged":
            let sent = type == "challenge_sent"
            let theirs = try ChallengeColor.side(container.decode(String.self, forKey: .color))
            let notice = ChallengeNotice(
                challenge: try container.decode(String.self, forKey: .challenge),
                player: try container.decodeIfPresent(String.self, forKey: sent ? .to : .from),
                rating: try container.decodeIfPresent(Int.self, forKey: .rating),
                terms: try ChallengeTerms(
                    noticeFrom: decoder, challengerSide: sent ? theirs : theirs?.opponent),
                link: try container.decodeIfPresent(String.self, forKey: .link))
            self = sent ? .challengeSent(notice) : .challenged(notice)
        case "challenge_declined":
            self = .challengeDeclined(
                challenge: try container.decode(String.self, forKey: .challenge),
                reason: try container.decodeIfPresent(String.self, forKey: .reason))
        case "challenge_cancelled":
            self = .challengeCancelled(
                challenge: try container.decode(String.self, forKey: .challenge),
                reason: try container.decode(ChallengeEnd.self, forKey: .reason))
        case "challenges": self = .challenges(accept: try container.decode(Bool.self, forKey: .accept))
        case "layouts": self = .layouts(try container.decode([LayoutEntry].self, forKey: .layouts))
        case "levels": self = .levels(try container.decode([LevelEntry].self, forKey: .levels))
        default:
            // An offer's messages are named by its kind.
            if let offer = Offer.named(type, as: \.offeredType) {
                self = .offered(offer, game: try container.decode(Int64.self, forKey: .game))
            } else if let offer = Offer.named(type, as: \.offerType) {
                self = .offerMade(offer, game: try container.decode(Int64.self, forKey: .game))
            } else if let offer = Offer.named(type, as: \.declinedType) {
                self = .declined(offer, game: try container.decode(Int64.self, forKey: .game))
            } else {
                throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(40))'")
            }
        }
    }

    public func encodeFields(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case .welcome(let welcome): try welcome.encode(to: encoder)
        case .start(let start): try start.encode(to: encoder)
        case .moved(let moved): try moved.encode(to: encoder)
        case .game(let game): try game.encode(to: encoder)
        case .end(let end): try end.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        case .leaderboard(let leaderboard): try leaderboard.encode(to: encoder)
        case .profile(let profile): try profile.encode(to: encoder)
        case .live(let games): try container.encode(games, forKey: .games)
        case .watching(let game): try game.encode(to: encoder)
        case .watchedEnd(let end): try end.encode(to: encoder)
        case .games(let archive): try archive.encode(to: encoder)
        case .pgn(let pgn): try pgn.encode(to: encoder)
        case .analysis(let analysis): try analysis.encode(to: encoder)
        case .unwatched(let game), .rematchOffered(let game), .rematchOffer(let game),
            .rematchDeclined(let game), .offered(_, let game), .offerMade(_, let game),
            .declined(_, let game):
            try container.encode(game, forKey: .game)
        case .challengeSent(let notice), .challenged(let notice):
            let sent = if case .challengeSent = self { true } else { false }
            try container.encode(notice.challenge, forKey: .challenge)
            try container.encodeIfPresent(notice.player, forKey: sent ? .to : .from)
            try container.encodeIfPresent(notice.rating, forKey: .rating)
            try container.encodeIfPresent(notice.link, forKey: .link)
            try notice.terms.encode(
                to: encoder, side: sent ? notice.terms.challengerSide : notice.terms.challengedSide)
        case .challengeDeclined(let challenge, let reason):
            try container.encode(challenge, forKey: .challenge)
            try container.encodeIfPresent(reason, forKey: .reason)
        case .challengeCancelled(let challenge, let reason):
            try container.encode(challenge, forKey: .challenge)
            try container.encode(reason, forKey: .reason)
        case .challenges(let accept): try container.encode(accept, forKey: .accept)
        case .layouts(let layouts): try container.encode(layouts, forKey: .layouts)
        case .levels(let levels): try container.encode(levels, forKey: .levels)
        case .bye, .seeking, .cancelled, .pong, .shutdown, .superseded: break
        }
    }
}
