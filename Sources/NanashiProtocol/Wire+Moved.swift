extension Wire {
    /// The line of a `moved` reply, written field by field: two go out for every move, and
    /// `JSONEncoder` took a good part of the server's time per move. The bytes are exactly the
    /// encoder's (sorted keys, slashes as they are); `nil` when a value needs more than plain
    /// ASCII text and integers (an escape, or a non-integral id), which the encoder then writes.
    static func movedLine(_ moved: Moved, id: RequestID?) -> String? {
        guard isPlain(moved.fen), isPlain(moved.move) else { return nil }
        var line = #"{"clock":{"o":"#
        line.reserveCapacity(160)
        line += String(moved.clock.o)
        line += #","x":"#
        line += String(moved.clock.x)
        line += #"},"fen":""#
        line += moved.fen
        line += #"","game":"#
        line += String(moved.game)
        switch id {
        case nil:
            break
        case .integer(let integer):
            line += #","id":"#
            line += String(integer)
        case .string(let text):
            guard isPlain(text) else { return nil }
            line += #","id":""#
            line += text
            line += "\""
        case .number:
            return nil
        }
        line += #","move":""#
        line += moved.move
        line += #"","ply":"#
        line += String(moved.ply)
        line += #","type":"moved"}"#
        return line
    }

    /// Printable ASCII with nothing JSON escapes: written between quotes as it is.
    private static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
    }
}
