import Foundation

/// Where the database's address comes from: `--db`, else the first line of the file `--db-file`
/// names, else the environment variable `NANASHI_DB`, else a command's default. The file and
/// the environment keep a PostgreSQL password off the command line, where any user of the
/// machine sees it (`ps`).
package enum DatabaseSource {
    /// The environment variable read when neither option is given.
    package static let environmentVariable = "NANASHI_DB"

    /// The address's text, from the first source that gives one.
    ///
    /// - Throws: `DatabaseAddressError` when both options are given, the file cannot be read or
    ///   its first line is empty, or no source gives an address and there is no default. The
    ///   message never holds the file's contents.
    package static func text(
        option: String?, file: String?, environment: [String: String], default fallback: String?
    ) throws(DatabaseAddressError) -> String {
        switch (option, file) {
        case (_?, _?):
            throw DatabaseAddressError("give --db or --db-file, not both")
        case (let option?, nil):
            return option
        case (nil, let file?):
            let contents: String
            do {
                contents = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw DatabaseAddressError("cannot read --db-file \(file)")
            }
            let line =
                contents.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .first
                ?? ""
            let address = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !address.isEmpty else {
                throw DatabaseAddressError("the first line of --db-file \(file) is empty")
            }
            return address
        case (nil, nil):
            if let value = environment[environmentVariable], !value.isEmpty { return value }
            guard let fallback else {
                throw DatabaseAddressError("no database: give --db, --db-file or \(environmentVariable)")
            }
            return fallback
        }
    }
}
