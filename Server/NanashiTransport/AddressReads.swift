import NanashiProtocol
import NanashiRuntime

/// The database reads one client address may ask for, over all its connections at once and one
/// after another: a token bucket per address (`KeyedBuckets`), so that connecting again does not
/// fill it again as it fills a connection's own message budget. Protocol queries (`leaderboard`,
/// `profile`, `games`, `pgn`, `live`, `watch`, `analyse`), `auth` (a token looked up),
/// `challenges` (a setting stored and told to every node) and page requests spend it;
/// moves and the rest of a game do not, so a neighbour behind the same address that floods
/// queries cannot stop anyone's game.
package final class AddressReads: Sendable {
    private let buckets: KeyedBuckets<String>
    private let rate: Double

    package init(_ settings: ServerSettings) {
        rate = settings.readRatePerAddress
        buckets = KeyedBuckets(
            capacity: Double(settings.readBurstPerAddress), perSecond: settings.readRatePerAddress,
            clock: settings.clock)
    }

    /// Spends one read of `address`'s budget; `false`, spending nothing, when none is left.
    package func spend(_ address: String) -> Bool { buckets.take(address) }

    /// What a query over the budget is told.
    package var refusal: ProtocolError {
        let rate = rate == rate.rounded() ? String(Int(rate)) : String(rate)
        return ProtocolError(
            .rateLimited, "too many queries from your address; slow down (at most \(rate) a second)")
    }
}
