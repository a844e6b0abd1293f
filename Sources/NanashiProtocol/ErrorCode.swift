/// The stable, machine-readable code of an `error` message. New codes may be added; existing
/// ones never change meaning.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// The line is not JSON (or not UTF-8).
    public static let badJSON = ErrorCode(rawValue: "bad_json")
    /// The JSON is not a well-formed message: a field is missing, of the wrong type or out of range.
    public static let badRequest = ErrorCode(rawValue: "bad_request")
    /// The `"type"` is not one this server knows.
    public static let unknownType = ErrorCode(rawValue: "unknown_type")
    /// The line was longer than the limit; it was discarded.
    public static let lineTooLong = ErrorCode(rawValue: "line_too_long")
    /// The message needs a logged-in session.
    public static let notAuthenticated = ErrorCode(rawValue: "not_authenticated")
    /// Someone already has that name (names are unique ignoring case).
    public static let nameTaken = ErrorCode(rawValue: "name_taken")
    /// Wrong name, password or token, or an expired token.
    public static let badCredentials = ErrorCode(rawValue: "bad_credentials")
    /// The password is too short.
    public static let weakPassword = ErrorCode(rawValue: "weak_password")
    /// The name is not 3-20 characters of `A-Za-z0-9_-`.
    public static let badName = ErrorCode(rawValue: "bad_name")
    /// The player has no game in progress with that id.
    public static let noSuchGame = ErrorCode(rawValue: "no_such_game")
    /// No player has that name.
    public static let noSuchPlayer = ErrorCode(rawValue: "no_such_player")
    /// It is the opponent's move.
    public static let notYourTurn = ErrorCode(rawValue: "not_your_turn")
    /// The move is not legal in the game's position (or not a move at all).
    public static let illegalMove = ErrorCode(rawValue: "illegal_move")
    /// The player is already seeking a game.
    public static let alreadySeeking = ErrorCode(rawValue: "already_seeking")
    /// The player already has a game in progress.
    public static let inGame = ErrorCode(rawValue: "in_game")
    /// Too many attempts (failed logins, logins or registrations from one address, connections
    /// from one address, or too many messages); try again later.
    public static let rateLimited = ErrorCode(rawValue: "rate_limited")
    /// The connection sent no line for too long; the server closes it.
    public static let idleTimeout = ErrorCode(rawValue: "idle_timeout")
    /// The server is at capacity (password hashing, or connections); nothing changed. Try again
    /// in a few seconds, waiting longer after each refusal.
    public static let busy = ErrorCode(rawValue: "busy")
    /// The connection already watches as many games as it may (10).
    public static let watchLimit = ErrorCode(rawValue: "watch_limit")
    /// No challenge with that id stands (never made, taken up, declined, withdrawn or expired).
    public static let noSuchChallenge = ErrorCode(rawValue: "no_such_challenge")
    /// The player challenged takes no challenges now, or has too many waiting.
    public static let challengeRefused = ErrorCode(rawValue: "challenge_refused")
    /// The account was closed by a moderator: it cannot log in, and its name cannot be
    /// registered again.
    public static let accountClosed = ErrorCode(rawValue: "account_closed")
    /// A moderator marked the player as playing with engine help: rated games (seeks between
    /// people, rematches) are refused; games against the engine remain.
    public static let restricted = ErrorCode(rawValue: "restricted")
    /// The server is stopping (a planned restart): it starts no new game (a seek, an accepted
    /// challenge or rematch, a game against the engine); nothing changed. Games in progress go on
    /// after the restart.
    public static let shuttingDown = ErrorCode(rawValue: "shutting_down")
    /// The server failed (for example, its database); nothing changed.
    public static let internalError = ErrorCode(rawValue: "internal_error")
}

/// An `error` message: a stable code and a sentence for people.
public struct ProtocolError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
