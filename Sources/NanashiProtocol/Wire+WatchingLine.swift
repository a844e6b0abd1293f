import NanashiCore

extension Wire {
    /// The `moves` array of a `watching` line, `["f2","a7c5","0000"]`: the same text for the
    /// same moves, so that a host keeps it from one request to the next while no move is played.
    public static func movesArray(_ moves: [Move]) -> String {
        var text = "["
        text.reserveCapacity(2 + moves.count * 7)
        for (index, move) in moves.enumerated() {
            text += index == 0 ? "\"" : ",\""
            text += move.description
            text += "\""
        }
        text += "]"
        return text
    }

    /// The line of a `watching` (a `game` line, as a watcher gets it) whose moves are `movesArray` (`movesArray(watched.moves)`), or
    /// `nil` if the encoder must write it (a name or id that needs escaping).
    public static func watchingLine(_ watched: WatchedGame, id: RequestID?, movesArray: String) -> String? {
        guard isPlain(watched.fen), isPlain(watched.x.name), isPlain(watched.o.name),
            isPlain(watched.start ?? "")
        else { return nil }
        var line = #"{"clock":{"o":"#
        line.reserveCapacity(movesArray.utf8.count + 200)
        line += String(watched.clock.o)
        line += #","x":"#
        line += String(watched.clock.x)
        line += "},"
        guard
            appendGameFields(
                fen: watched.fen, game: watched.game, id: id, control: watched.control, to: &line)
        else { return nil }
        line += #","moves":"#
        line += movesArray
        line += #","o":"#
        append(watched.o, to: &line)
        if !watched.rated { line += #","rated":false"# }
        if let start = watched.start {
            line += #","start":""#
            line += start
            line += "\""
        }
        line += #","type":"game","x":"#
        append(watched.x, to: &line)
        line += "}"
        return line
    }

    private static func append(_ player: GamePlayer, to line: inout String) {
        line += #"{"name":""#
        line += player.name
        line += #"","rating":"#
        line += String(player.rating)
        line += "}"
    }
}
