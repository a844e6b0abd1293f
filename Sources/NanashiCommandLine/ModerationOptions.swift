import ArgumentParser
import Foundation
import NanashiServer

/// What every `nanashi admin` action takes: the database, who acts, why, and the player.
public struct ModerationOptions: ParsableArguments {
    public init() {}

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Who acts, as the log names them (default: $USER).")
    var moderator: String?

    @Option(help: "Why (required): kept in the log.")
    var reason: String

    @Argument(help: "The player's name.")
    var name: String

    /// The moderator the log names: `--moderator`, else `USER` of `environment`, else nobody.
    package func moderatorName(environment: [String: String]) -> String {
        moderator ?? environment["USER"] ?? ""
    }

    /// Opens the database, hands `act` the moderation, the player's name and the reason, and
    /// prints the line it returns.
    package func run(_ act: (Moderation, String, String) async throws -> String) async throws {
        let moderator = moderatorName(environment: ProcessInfo.processInfo.environment)
        print(
            try await Moderation.run(on: database.address(default: "nanashi.sqlite"), as: moderator) {
                try await act($0, name, reason)
            })
    }
}
