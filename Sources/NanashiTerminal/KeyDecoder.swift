/// Turns the bytes a terminal sends into keys, whatever pieces they arrive in: an arrow is three
/// bytes (`ESC [ A`), a mouse click about ten (`ESC [ < 0 ; 12 ; 5 M`), and a read may end in
/// the middle of either.
///
/// Esc alone is the first byte of those sequences too, so a lone `ESC` is only a key once nothing
/// has followed it for `escapeDelay`: the reader asks `deadline` how long it may wait for more
/// bytes, and calls `expire(at:)` when that time has come. Time is passed in, never read here.
public struct KeyDecoder: Sendable {
    /// How long an `ESC` with nothing after it waits before it counts as the Esc key.
    public static let escapeDelay = Duration.milliseconds(50)

    /// Bytes of a sequence not complete yet.
    private var pending: [UInt8] = []
    /// When the first pending byte arrived.
    private var pendingSince: ContinuousClock.Instant?

    public init() {}

    /// When the pending bytes become keys on their own if nothing follows (an Esc); `nil` when
    /// nothing is pending.
    public var deadline: ContinuousClock.Instant? {
        pendingSince.map { $0.advanced(by: Self.escapeDelay) }
    }

    /// The keys the bytes complete, read at `now`.
    public mutating func feed(_ bytes: some Sequence<UInt8>, at now: ContinuousClock.Instant) -> [Key] {
        var keys: [Key] = []
        for byte in bytes {
            if pending.isEmpty { pendingSince = now }
            pending.append(byte)
            keys += decodePending(complete: false)
        }
        if pending.isEmpty { pendingSince = nil }
        return keys
    }

    /// The keys of what is pending once its deadline has passed: a lone `ESC` is Esc, and the
    /// first bytes of a sequence that never finished are dropped.
    public mutating func expire(at now: ContinuousClock.Instant) -> [Key] {
        guard let deadline, now >= deadline else { return [] }
        let keys = decodePending(complete: true)
        pending = []
        pendingSince = nil
        return keys
    }

    /// Reads as many keys as the pending bytes hold; `complete` means no more bytes will come.
    private mutating func decodePending(complete: Bool) -> [Key] {
        var keys: [Key] = []
        while !pending.isEmpty {
            switch Self.decode(pending, complete: complete) {
            case .needMore:
                return keys
            case .key(let key, let length):
                if let key { keys.append(key) }
                pending.removeFirst(length)
            }
        }
        return keys
    }

    private enum Decoded {
        /// The bytes so far may be the start of a longer key.
        case needMore
        /// The first `length` bytes are this key (`nil`: bytes that mean nothing, dropped).
        case key(Key?, length: Int)
    }

    private static func decode(_ bytes: [UInt8], complete: Bool) -> Decoded {
        let first = bytes[0]
        switch first {
        case 0x1B:
            return escape(bytes, complete: complete)
        case 0x0D, 0x0A: return .key(.enter, length: 1)
        case 0x7F, 0x08: return .key(.backspace, length: 1)
        case 0x03: return .key(.interrupt, length: 1)
        case 0x04: return .key(.endOfInput, length: 1)
        case 0x0C: return .key(.redraw, length: 1)
        case 0x15: return .key(.eraseLine, length: 1)
        case 0x20..<0x7F: return .key(.character(Character(Unicode.Scalar(first))), length: 1)
        case 0xC0...0xF7:
            return utf8(bytes, complete: complete)
        default:
            return .key(nil, length: 1)
        }
    }

    /// A character of several UTF-8 bytes (é, ç in a file name).
    private static func utf8(_ bytes: [UInt8], complete: Bool) -> Decoded {
        let length = bytes[0] >= 0xF0 ? 4 : bytes[0] >= 0xE0 ? 3 : 2
        for index in 1..<min(length, bytes.count) where bytes[index] & 0xC0 != 0x80 {
            return .key(nil, length: index)
        }
        guard bytes.count >= length else { return complete ? .key(nil, length: bytes.count) : .needMore }
        let text = String(decoding: bytes[0..<length], as: UTF8.self)
        guard let character = text.first, text.count == 1, character != "\u{FFFD}" else {
            return .key(nil, length: length)
        }
        return .key(.character(character), length: length)
    }

    /// `ESC` alone, `ESC [ ...` (CSI) or `ESC O x` (SS3, arrows in the terminal's application mode).
    private static func escape(_ bytes: [UInt8], complete: Bool) -> Decoded {
        guard bytes.count > 1 else { return complete ? .key(.escape, length: 1) : .needMore }
        switch bytes[1] {
        case UInt8(ascii: "["):
            return controlSequence(bytes, complete: complete)
        case UInt8(ascii: "O"):
            guard bytes.count > 2 else { return complete ? .key(nil, length: 2) : .needMore }
            return .key(final(bytes[2], parameters: []), length: 3)
        default:
            // Esc, then another key (Alt-key in some terminals): the Esc now, the key next.
            return .key(.escape, length: 1)
        }
    }

    /// `ESC [`, parameter bytes, a final byte: arrows, Home, End, and SGR mouse reports.
    private static func controlSequence(_ bytes: [UInt8], complete: Bool) -> Decoded {
        var index = 2
        while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
        guard index < bytes.count else {
            // A sequence this long is garbage, not a key still arriving.
            if complete || bytes.count > 32 { return .key(nil, length: bytes.count) }
            return .needMore
        }
        let finalByte = bytes[index]
        let length = index + 1
        guard (0x40...0x7E).contains(finalByte) else { return .key(nil, length: length) }
        let parameterText = String(decoding: bytes[2..<index], as: UTF8.self)
        if parameterText.hasPrefix("<") {
            return .key(mouse(parameterText.dropFirst(), final: finalByte), length: length)
        }
        let parameters = parameterText.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        return .key(final(finalByte, parameters: parameters), length: length)
    }

    /// The key a sequence's final byte (and first parameter, for `~`) names.
    private static func final(_ byte: UInt8, parameters: [Int?]) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.first ?? nil {
            case 1, 7: return .home
            case 4, 8: return .end
            default: return nil
            }
        default: return nil
        }
    }

    /// `b;x;y` then `M` (pressed) or `m` (released): only presses of a button count, not releases,
    /// drags (bit 32) or the wheel (bit 64).
    private static func mouse(_ parameters: Substring, final: UInt8) -> Key? {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, final == UInt8(ascii: "M") else { return nil }
        let (code, column, row) = (numbers[0], numbers[1], numbers[2])
        guard code & (32 | 64) == 0, column >= 1, row >= 1 else { return nil }
        return .click(button: code & 3, column: column, row: row)
    }
}
