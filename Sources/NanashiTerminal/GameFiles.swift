/// Where `save` and `load` put and find games, and the day a saved game carries.
public protocol GameFiles {
    /// The text of the file at `path`; throws an error that says why it cannot be read.
    func read(_ path: String) throws -> String
    /// Writes `text` to the file at `path`; throws an error that says why it cannot be written.
    func write(_ text: String, to path: String) throws
    /// Today as PGN writes a day, `2026.11.22`.
    var today: String { get }
}
