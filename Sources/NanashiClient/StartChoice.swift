import NanashiCore

/// Where an online game is to start, as `nanashi online --layout NAME` or `--fen FEN` gives it.
public struct StartChoice: Hashable, Sendable {
    /// The named start (the standard one unless `--layout` names another).
    public var layout: Layout
    /// A start of the player's own (`--fen`, challenges only: always casual).
    public var custom: Position?

    /// The standard start.
    public static let standard = StartChoice(layout: .standard, custom: nil)

    init(layout: Layout, custom: Position?) {
        self.layout = layout
        self.custom = custom
    }

    /// The start `--layout` or `--fen` names (at most one of them).
    ///
    /// - Throws: `StartChoice.Problem` naming what is wrong: both given, a name of no layout, a
    ///   FEN the core refuses (with its reason).
    public init(layout name: String?, fen: String?) throws(Problem) {
        switch (name, fen) {
        case (nil, nil): self = .standard
        case (_?, _?): throw Problem(description: "--layout and --fen exclude each other")
        case (let name?, nil):
            guard let layout = Layout.named(name) else {
                throw Problem(
                    description: "no layout is named '\(name.prefix(40))': "
                        + Layout.all.map(\.name).joined(separator: ", "))
            }
            self.init(layout: layout, custom: nil)
        case (nil, let fen?):
            do {
                self.init(layout: .standard, custom: try Position(startingAt: fen))
            } catch {
                throw Problem(description: "--fen: \(error)")
            }
        }
    }

    /// What is wrong with the start asked for.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }
}
