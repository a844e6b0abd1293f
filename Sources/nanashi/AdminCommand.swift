import ArgumentParser
import NanashiCommandLine
import NanashiServer

/// `nanashi admin`: moderation on the server's own database, no server needed; every action is
/// logged (`nanashi admin log`).
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract:
            "Moderate accounts on a server's database: close, rename, reset passwords, mark engine help.",
        discussion: """
            Works on the database itself (--db, --db-file or NANASHI_DB, as 'nanashi serve' takes \
            it), with or without the server running. Each action needs a --reason and is kept, \
            with who (--moderator, else $USER) and when, in a log no one can edit (docs/OPERATIONS.md).
            """,
        subcommands: [
            Close.self, Reopen.self, Rename.self, ResetPassword.self, Mark.self, Unmark.self, Log.self,
            Suspects.self,
        ])
}

extension AdminCommand {
    struct Close: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close an account: no login, its sessions end, its name is never registered again.")
        @OptionGroup var options: ModerationOptions
        func run() async throws { try await options.run { try await $0.close($1, reason: $2) } }
    }

    struct Reopen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reopen a closed account.")
        @OptionGroup var options: ModerationOptions
        func run() async throws { try await options.run { try await $0.reopen($1, reason: $2) } }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename an account; its games follow.")
        @OptionGroup var options: ModerationOptions
        @Argument(help: "The new name (3 to 20 characters of A-Z, a-z, 0-9, _ and -).") var newName: String
        func run() async throws { try await options.run { try await $0.rename($1, to: newName, reason: $2) } }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Print a one-time token (24 h) with which the player sets a new password.")
        @OptionGroup var options: ModerationOptions
        func run() async throws {
            try await options.run { try await $0.resetPassword($1, reason: $2).description }
        }
    }

    struct Mark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mark a player as playing with engine help: off the leaderboard, no rated games.")
        @OptionGroup var options: ModerationOptions
        func run() async throws {
            try await options.run { try await $0.markEngineHelp($1, true, reason: $2) }
        }
    }

    struct Unmark: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lift a player's engine-help mark.")
        @OptionGroup var options: ModerationOptions
        func run() async throws {
            try await options.run { try await $0.markEngineHelp($1, false, reason: $2) }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List what moderators did, oldest first: id, time, moderator, action, player, detail, reason."
        )
        @OptionGroup var database: DatabaseOptions
        @Option(help: "How many of the latest lines.") var last = 50
        func run() async throws {
            print(
                lines: try await Moderation.run(on: database.address(default: "nanashi.sqlite"), as: "") {
                    try await $0.log(limit: last)
                })
        }
    }

    struct Suspects: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the players whose accuracy in analysed rated games stands far above the others'.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Each player's latest analysed rated games counted.") var games = 20
        @Option(help: "Fewer analysed rated games are not judged.") var minGames = 5
        @Option(help: "Standard deviations above the others' mean that stand out.") var z = 3.0
        @Flag(help: "List every player counted, not only those who stand out.") var all = false
        func run() async throws {
            var settings = FairPlay.Settings()
            (settings.lastGames, settings.minimumGames, settings.zThreshold) = (games, minGames, z)
            print(
                lines: try await Moderation.run(on: database.address(default: "nanashi.sqlite"), as: "") {
                    try await $0.suspects(settings, all: all)
                })
        }
    }
}
