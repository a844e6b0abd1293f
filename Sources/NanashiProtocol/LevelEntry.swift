/// One of the engine's levels as `levels` lists it: its number (what `seek`'s `ai` takes) and
/// its strength, about `elo` on the Elo scale of docs/ENGINE.md ("Levels"), level 1 at 500.
public struct LevelEntry: Hashable, Sendable, Codable {
    public var level: Int
    public var elo: Int

    public init(level: Int, elo: Int) {
        self.level = level
        self.elo = elo
    }
}
