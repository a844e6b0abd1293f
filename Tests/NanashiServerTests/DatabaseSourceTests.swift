import Foundation
import Logging
import NanashiServerTestSupport
import NanashiStorage
import NanashiTestSupport
import Testing

@testable import NanashiServer

// Where `--db` comes from (the option, `--db-file`, `NANASHI_DB`), and the password of a
// PostgreSQL address kept out of logs and errors.

@Suite struct DatabaseSourceTests {
    @Test func theOptionThenTheFileThenTheEnvironmentThenTheDefault() throws {
        let folder = try TemporaryDatabase()
        let file = folder.directory.appendingPathComponent("db").path
        try "postgres://nanashi:pw@db:5432/nanashi\nignored\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let environment = ["NANASHI_DB": "/from/environment.sqlite"]
        func text(_ option: String?, _ file: String?, _ environment: [String: String], _ fallback: String?)
            throws
            -> String
        {
            try DatabaseSource.text(option: option, file: file, environment: environment, default: fallback)
        }
        #expect(try text("given.sqlite", nil, environment, "nanashi.sqlite") == "given.sqlite")
        #expect(try text(nil, file, environment, "nanashi.sqlite") == "postgres://nanashi:pw@db:5432/nanashi")
        #expect(try text(nil, nil, environment, "nanashi.sqlite") == "/from/environment.sqlite")
        #expect(try text(nil, nil, ["NANASHI_DB": ""], "nanashi.sqlite") == "nanashi.sqlite")

        let empty = folder.directory.appendingPathComponent("empty").path
        try " \r\nsecond line\n".write(toFile: empty, atomically: true, encoding: .utf8)
        let refusals: [(String?, String?, [String: String], String?, String)] = [
            ("a.sqlite", file, [:], nil, "give --db or --db-file, not both"),
            (nil, "/no/such/file", [:], nil, "cannot read --db-file /no/such/file"),
            (nil, empty, [:], nil, "the first line of --db-file \(empty) is empty"),
            (nil, nil, [:], nil, "no database: give --db, --db-file or NANASHI_DB"),
        ]
        for (option, file, environment, fallback, why) in refusals {
            #expect(throws: DatabaseAddressError(why)) { try text(option, file, environment, fallback) }
        }
    }

    @Test func aPostgreSQLAddressIsShownWithoutItsPassword() throws {
        let address = try DatabaseAddress(
            parsing: "postgres://nanashi:s3cret%40pw@db.example:6432/games?sslmode=require")
        #expect(address.description == "postgres://nanashi@db.example:6432/games?sslmode=require")
        #expect(!"\(address)".contains("s3cret"))
        #expect(String(reflecting: address) == address.description)
        if case .postgres(let postgres) = address {
            #expect(String(reflecting: postgres) == address.description)
        }
    }

    /// The server's `listening on` line names the database without its password.
    @Test func theServersLogNamesThePostgreSQLDatabaseWithoutThePassword() async throws {
        let url = try await postgresDatabase()
        let password = try #require(URLComponents(string: url)?.password)
        let log = CapturedLog(level: .info)
        let server = try await TestServer(logger: Logger(label: "test") { log.handler(label: $0) }) {
            $0.databasePath = url
        }
        await server.stop()
        let listening = try #require(log.text.split(separator: "\n").first { $0.contains("listening on") })
        let redacted = try DatabaseAddress(parsing: url).description
        #expect(
            listening.hasSuffix("database \(redacted) [:]")
                && redacted.hasPrefix("postgres://postgres@127.0.0.1:"))
        #expect(!log.text.contains(password))
    }
}
