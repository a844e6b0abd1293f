import NanashiCore

/// The lines that begin and end a game, and `welcome`: written field by field rather than
/// through `JSONEncoder`, byte for byte as the encoder writes them with sorted keys. As for
/// `moved`, only plain ASCII text (nothing to escape) and integer or plain-text ids are written
/// so; anything else returns `nil` and goes through the encoder.
extension Wire {
    /// The line of a `start`, or `nil` if the encoder must write it.
    static func startLine(_ start: GameStart, id: RequestID?) -> String? {
        guard isPlain(start.fen), isPlain(start.opponent.name) else { return nil }
        var line = #"{"color":""#
        line += start.color.rawValue
        line += #"","#
        guard appendGameFields(fen: start.fen, game: start.game, id: id, control: start.control, to: &line)
        else { return nil }
        if let legal = start.legal {
            line += #","legal":"#
            line += movesArray(legal)
        }
        line += #","opponent":{"name":""#
        line += start.opponent.name
        line += #"","rating":"#
        line += String(start.opponent.rating)
        line += start.rated ? "}" : #"},"rated":false"#
        line += #","type":"start"}"#
        return line
    }

    /// Appends the fields that a `start` and a `game` line share, in the encoder's order:
    /// `"fen"`, `"game"`, the request's `"id"`, and the time control's `"increment"` and
    /// `"initial"`; `false` if the id must go through the encoder.
    static func appendGameFields(
        fen: String, game: Int64, id: RequestID?, control: TimeControl, to line: inout String
    ) -> Bool {
        line += #""fen":""#
        line += fen
        line += #"","game":"#
        line += String(game)
        guard append(id, to: &line) else { return false }
        line += #","increment":"#
        line += String(control.increment)
        line += #","initial":"#
        line += String(control.initial)
        return true
    }

    /// The line of an `end`, or `nil` if the encoder must write it.
    static func endLine(_ end: GameEnd, id: RequestID?) -> String? {
        var line = #"{"game":"#
        line += String(end.game)
        guard append(id, to: &line) else { return nil }
        line += #","outcome":{"reason":""#
        line += end.outcome.reason.rawValue
        line += #"","winner":"#
        if let winner = end.outcome.winner {
            line += "\""
            line += winner.rawValue
            line += "\""
        } else {
            line += "null"
        }
        line += #"},"rating":{"after":"#
        line += String(end.rating.after)
        line += #","before":"#
        line += String(end.rating.before)
        line += #"},"type":"end"}"#
        return line
    }

    /// The line of a `welcome`, or `nil` if the encoder must write it.
    static func welcomeLine(_ welcome: Welcome, id: RequestID?) -> String? {
        guard isPlain(welcome.name), isPlain(welcome.token) else { return nil }
        var line = welcome.acceptsChallenges ? #"{"games":"# : #"{"challenges":false,"games":"#
        line += String(welcome.games)
        guard append(id, to: &line) else { return nil }
        line += #","name":""#
        line += welcome.name
        line += #"","rating":"#
        line += String(welcome.rating)
        line += #","rd":"#
        line += String(welcome.rd)
        line += #","token":""#
        line += welcome.token
        line += #"","type":"welcome"}"#
        return line
    }
}
