import ArgumentParser
import NanashiCommandLine
import NanashiServer

/// `nanashi seed`: fills a database with made-up players, games and bot accounts, for benchmarks.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill a server database with made-up players and bot accounts (for benchmarks).",
        discussion: """
            For benchmarks only: adds --players rated players (seed000001...) with plausible \
            ratings, deviations and records, --games finished games between them, and --bots \
            accounts (bot0001...) whose session tokens are written to --accounts for \
            'nanashi loadtest --accounts'. Seeded accounts have no password. Run it on a stopped \
            server's database file; everything is added in one transaction, or nothing.
            """
    )

    @Option(help: "The server's SQLite database file (created if missing).")
    var db: String

    @Option(help: "Rated players to add.")
    var players = 0

    @Option(help: "Finished games to add between them (default: two per player).")
    var games: Int?

    @Option(help: "Bot accounts to add (needs --accounts).")
    var bots = 0

    @OptionGroup var accountsOption: AccountsOption

    func run() async throws {
        print(
            try BenchmarkSeed.run(
                databaseAt: db, players: players, games: games, bots: bots, accounts: accountsOption.accounts)
        )
    }
}
