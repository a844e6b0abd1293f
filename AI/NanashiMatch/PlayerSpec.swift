import NanashiAI

/// Who plays, as a match names it: `level:N` (a built-in level) or a shell command that starts a
/// UAI engine.
public enum PlayerSpec: Hashable, Sendable, CustomStringConvertible {
    case level(Level)
    case command(String)

    /// Reads an engine's name; throws for a level that does not exist or an empty command.
    public init(_ text: String) throws(MatchError) {
        if text.hasPrefix("level:") {
            guard let number = Int(text.dropFirst("level:".count)), let level = Level(number) else {
                throw MatchError(
                    "bad engine '\(text)': levels are level:\(Level.range.lowerBound) to level:\(Level.range.upperBound)"
                )
            }
            self = .level(level)
        } else if text.allSatisfy(\.isWhitespace) {
            throw MatchError("bad engine '\(text)': give level:N or a command")
        } else {
            self = .command(text)
        }
    }

    public var description: String {
        switch self {
        case .level(let level): return "level:\(level.number)"
        case .command(let command): return command
        }
    }

    /// Starts the player: a fresh engine for a level, the process for a command.
    public func makePlayer(random: RandomSource) throws -> any Player {
        switch self {
        case .level(let level): return BuiltInPlayer(level: level, random: random)
        case .command(let command): return try UAIPlayer(command: command)
        }
    }
}
