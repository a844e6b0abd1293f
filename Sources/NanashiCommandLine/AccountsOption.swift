import ArgumentParser

/// `--accounts`: the bots' accounts, which `nanashi seed` writes and `nanashi loadtest` logs in with.
public struct AccountsOption: ParsableArguments {
    public init() {}

    @Option(
        help:
            "A file of bot accounts, a 'name token' line each: seed writes it; loadtest logs in with it and adds the accounts it registers."
    )
    public var accounts: String?
}
