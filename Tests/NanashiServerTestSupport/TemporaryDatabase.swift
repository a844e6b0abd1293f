import Foundation

/// A database file in a fresh temporary directory, removed with it.
public final class TemporaryDatabase {
    public let directory: URL
    public var path: String { directory.appendingPathComponent("nanashi.sqlite").path }

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
