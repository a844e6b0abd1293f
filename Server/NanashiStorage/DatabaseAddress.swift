import Foundation

/// Where the server keeps its data, as `--db` names it: a file path means SQLite (created if
/// missing); `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=require]` means PostgreSQL.
package enum DatabaseAddress: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAddress)

    /// Reads `--db`.
    ///
    /// - Throws: `DatabaseAddressError` for a URL that is not one of PostgreSQL's as above, or
    ///   an empty path.
    package init(parsing text: String) throws(DatabaseAddressError) {
        guard let schemeEnd = text.range(of: "://") else {
            guard !text.isEmpty else { throw DatabaseAddressError("the database path is empty") }
            self = .sqlite(path: text)
            return
        }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw DatabaseAddressError(
                "'\(scheme)://' is not a database this server speaks: give a file path (SQLite) or a postgres:// URL"
            )
        }
        self = .postgres(try PostgresAddress(parsing: text))
    }

    /// The address for logs and errors: never the password.
    package var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let address): address.description
        }
    }

    /// As `description`: `String(reflecting:)` and `debugPrint` never show the password either.
    package var debugDescription: String { description }
}

/// A PostgreSQL server, database and login, from a `postgres://` URL.
package struct PostgresAddress: Equatable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package var user: String
    package var password: String?
    package var host: String
    package var port = 5432
    package var database: String
    /// `sslmode=require`: connect over TLS or not at all (the server's certificate is not
    /// checked against a CA, as libpq's `require` does not).
    package var requiresTLS = false

    /// `postgres://USER@HOST:PORT/DB`, without the password.
    package var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
            + (requiresTLS ? "?sslmode=require" : "")
    }

    /// As `description`: never the password.
    package var debugDescription: String { description }
}

extension PostgresAddress {
    /// Reads `postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=require|disable]`; the user,
    /// password and database may be percent-encoded.
    package init(parsing text: String) throws(DatabaseAddressError) {
        func bad(_ why: String) -> DatabaseAddressError {
            DatabaseAddressError(
                "bad PostgreSQL URL (\(why)): expected postgres://USER[:PASSWORD]@HOST[:PORT]/DB")
        }
        guard let url = URLComponents(string: text) else { throw bad("not a URL") }
        guard let user = url.user, !user.isEmpty else { throw bad("no user") }
        guard let host = url.host, !host.isEmpty else { throw bad("no host") }
        let path = url.path
        guard path.hasPrefix("/"), path.count > 1, !path.dropFirst().contains("/") else {
            throw bad("no database name, or more than one")
        }
        if let port = url.port {
            guard (1...65535).contains(port) else { throw bad("port \(port) is out of range") }
            self.port = port
        }
        for item in url.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "require"): requiresTLS = true
            case ("sslmode", "disable"): requiresTLS = false
            case ("sslmode", let value):
                throw bad("sslmode '\(value ?? "")' is not supported; use require or disable")
            default: throw bad("unknown parameter '\(item.name)'")
            }
        }
        guard url.fragment == nil else { throw bad("a fragment") }
        self.user = user
        self.password = url.password
        self.host = host
        self.database = String(path.dropFirst())
    }
}

/// `--db` is neither a file path nor a PostgreSQL URL.
package struct DatabaseAddressError: Error, Equatable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
