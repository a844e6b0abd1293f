/// The server's lines made safe for a terminal: a server (or whoever sits between it and a
/// client on plain TCP) must not write escape sequences to the player's screen through a name, a
/// message or a PGN tag, which could leave the alternate screen, retitle the window or write the
/// clipboard.
enum ServerText {
    /// `line`, a JSON line, with every control character its strings carry replaced by `?`:
    /// C0 but line feeds and tabs (escaped as `\uXXXX`, `\r`, `\b` or `\f`), DEL, and C1 (escaped,
    /// or raw as UTF-8). Outside strings JSON has no backslashes and no such bytes, so the line
    /// is read as it comes, without parsing it.
    static func withoutControlCharacters(_ line: [UInt8]) -> [UInt8] {
        guard line.contains(where: { $0 == backslash || $0 == 0x7F || $0 == 0xC2 }) else { return line }
        var result: [UInt8] = []
        result.reserveCapacity(line.count)
        var index = 0
        while index < line.count {
            let byte = line[index]
            if byte == backslash, index + 1 < line.count {
                let escaped = line[index + 1]
                if escaped == UInt8(ascii: "u"), index + 6 <= line.count,
                    let value = hexValue(line[(index + 2)..<(index + 6)])
                {
                    if isControl(value) {
                        result.append(question)
                    } else {
                        result.append(contentsOf: line[index..<(index + 6)])
                    }
                    index += 6
                } else {
                    if [UInt8(ascii: "r"), UInt8(ascii: "b"), UInt8(ascii: "f")].contains(escaped) {
                        result.append(question)
                    } else {
                        result.append(contentsOf: [byte, escaped])
                    }
                    index += 2
                }
            } else if byte == 0x7F {
                result.append(question)
                index += 1
            } else if byte == 0xC2, index + 1 < line.count, (0x80...0x9F).contains(line[index + 1]) {
                result.append(question)
                index += 2
            } else {
                result.append(byte)
                index += 1
            }
        }
        return result
    }

    private static let backslash = UInt8(ascii: "\\")
    private static let question = UInt8(ascii: "?")

    /// C0 but line feed and tab, DEL, and C1.
    private static func isControl(_ value: UInt32) -> Bool {
        (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
    }

    private static func hexValue(_ digits: ArraySlice<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for digit in digits {
            guard let nibble = Character(UnicodeScalar(digit)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return value
    }
}
