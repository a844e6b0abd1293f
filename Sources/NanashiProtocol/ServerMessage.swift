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
        }
    }
}

/// The fields of `welcome`: who is logged in, their session token and rating.
public struct Welcome: Hashable, Sendable, Codable {
    public var name: String
    /// The session token, base64url; send it in `auth` to resume the session.
    public var token: String
    public var rating: Int
    public var rd: Int
    public var games: Int

    public init(name: String, token: String, rating: Int, rd: Int, games: Int) {
        self.name = name
        self.token = token
        self.rating = rating
        self.rd = rd
        self.games = games
    }
}

/// A server message with the `"id"` of the request it answers, if any.
public struct Reply: Hashable, Sendable {
    public var id: RequestID?
    public var message: ServerMessage

    public init(_ message: ServerMessage, id: RequestID? = nil) {
        self.id = id
        self.message = message
    }
}

extension Reply: Codable {
    private enum Keys: String, CodingKey { case type, id }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decodeIfPresent(RequestID.self, forKey: .id)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "welcome": message = .welcome(try Welcome(from: decoder))
        case "bye": message = .bye
        case "seeking": message = .seeking
        case "cancelled": message = .cancelled
        case "start": message = .start(try GameStart(from: decoder))
        case "moved": message = .moved(try Moved(from: decoder))
        case "game": message = .game(try GameState(from: decoder))
        case "end": message = .end(try GameEnd(from: decoder))
        case "error": message = .error(try ProtocolError(from: decoder))
        case "leaderboard": message = .leaderboard(try Leaderboard(from: decoder))
        case "profile": message = .profile(try Profile(from: decoder))
        case "pong": message = .pong
        case "shutdown": message = .shutdown
        case "superseded": message = .superseded
        default: throw ProtocolError(.unknownType, "unknown message type '\(type.prefix(40))'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(message.type, forKey: .type)
        try container.encodeIfPresent(id, forKey: .id)
        switch message {
        case .welcome(let welcome): try welcome.encode(to: encoder)
        case .start(let start): try start.encode(to: encoder)
        case .moved(let moved): try moved.encode(to: encoder)
        case .game(let game): try game.encode(to: encoder)
        case .end(let end): try end.encode(to: encoder)
        case .error(let error): try error.encode(to: encoder)
        case .leaderboard(let leaderboard): try leaderboard.encode(to: encoder)
        case .profile(let profile): try profile.encode(to: encoder)
        case .bye, .seeking, .cancelled, .pong, .shutdown, .superseded: break
        }
    }
}
