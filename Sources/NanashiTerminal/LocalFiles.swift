import Foundation
import NanashiCore

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

    public var today: String {
        GameRecord.pgnDate(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }
}
