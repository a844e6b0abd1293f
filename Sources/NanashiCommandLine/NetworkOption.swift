import ArgumentParser
import NanashiAI

/// `--network`: a network file the trainer wrote, to score with instead of the built-in one
/// (`uai`, `bench` and `datagen`).
public struct NetworkOption: ParsableArguments {
    public init() {}

    @Option(help: "Score with the network in this file (as the trainer writes it), not the built-in one.")
    var network: String?

    /// The network named, read and checked; the built-in one when none is.
    public func load() throws -> Network {
        try network.map(Network.init(file:)) ?? .trained
    }
}
