import Foundation

/// Games saved and loaded as files on this machine, dated in UTC.
public struct LocalFiles: GameFiles {
    /// Why a file could not be read or written, in the system's words.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public init() {}

    public func read(_ path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Problem(description: error.localizedDescription)
        }
    }

    public func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Problem(description: error.localizedDescription)
        }
    }

    public var today: String { Self.pgnDate(Date()) }

    /// A day as PGN writes it, `2026.11.22` (in UTC).
    static func pgnDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.year!).\(twoDigits(parts.month!)).\(twoDigits(parts.day!))"
    }
}
