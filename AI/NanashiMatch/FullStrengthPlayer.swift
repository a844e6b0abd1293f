import NanashiAI
import NanashiCore

/// The engine at full strength with search constants of its own, searching in this process: a
/// side of a tuner's games.
public final class FullStrengthPlayer: Player {
    public let name: String
    private let engine: Engine

    /// An engine with a table of `hashMegabytes` MB, named `name` in the games it plays.
    public init(name: String, hashMegabytes: Int = 16) {
        self.name = name
        engine = Engine(hashMegabytes: hashMegabytes)
    }

    /// The constants its searches use; set them between games.
    public var parameters: SearchParameters {
        get { engine.parameters }
        set { engine.parameters = newValue }
    }

    public func newGame() { engine.newGame() }

    public func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) -> Move {
        engine.search(position, limits: limits).bestMove
    }

    public func close() {}
}
