import Foundation
import NanashiCore

/// Where the games of a match start: the built-in book, or positions read from a file.
public enum Openings {
    /// The layouts of the built-in book (the core's: the standard start and ten blocker
    /// layouts), each symmetric between the files a-c and g-e.
    static var blockerLayouts: [Layout] { Layout.all }

    /// The built-in book: for every blocker layout, every first move of x answered by o's mirror
    /// image of it (so that both sides stand the same), taking the layouts in turn so that the
    /// first openings differ most.
    public static let book: [Position] = {
        let perLayout = blockerLayouts.map { layout in
            let base = layout.position
            return base.legalMoves().compactMap { move -> Position? in
                guard let afterX = try? base.play(move), let reply = mirror(move) else { return nil }
                return try? afterX.play(reply)
            }
        }
        var all: [Position] = []
        for index in 0..<(perLayout.map(\.count).max() ?? 0) {
            for openings in perLayout where index < openings.count { all.append(openings[index]) }
        }
        return all
    }()

    /// `count` openings from `source`, in order, starting over when there are fewer.
    public static func take(_ count: Int, from source: [Position]) -> [Position] {
        guard !source.isEmpty else { return [] }
        return (0..<count).map { source[$0 % source.count] }
    }

    /// Reads openings from text: a FEN per line; blank lines and lines starting with '#' are
    /// skipped. Throws, naming the line, for a bad FEN or a finished game.
    public static func parse(_ text: String) throws(MatchError) -> [Position] {
        var positions: [Position] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let position = try? Position(fen: line) else {
                throw MatchError("openings line \(index + 1): bad FEN '\(line)'")
            }
            if position.isGameOver { throw MatchError("openings line \(index + 1): the game is over") }
            positions.append(position)
        }
        if positions.isEmpty { throw MatchError("no openings: give a FEN per line") }
        return positions
    }

    /// Reads the openings in the file at `path` (`parse(_:)`).
    public static func read(file path: String) throws(MatchError) -> [Position] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw MatchError("cannot read openings file '\(path)'")
        }
        return try parse(text)
    }

    /// The move reflected between file a and file g.
    static func mirror(_ move: Move) -> Move? {
        switch move {
        case .clone(let to): return .clone(to: reflect(to))
        case .jump(let from, let to): return .jump(from: reflect(from), to: reflect(to))
        case .pass: return .pass
        }
    }

    /// The square reflected between file a and file g.
    static func reflect(_ square: Square) -> Square {
        Square(file: 6 - square.file, rank: square.rank)!
    }
}
