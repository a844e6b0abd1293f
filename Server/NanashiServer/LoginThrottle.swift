import NanashiCore
import NanashiProtocol
import NanashiRuntime

/// Counts failed logins in token buckets (`KeyedBuckets`), one per (address, name) and one per
/// address: each attempt takes a token from both, and a token comes back every
/// `failedLoginRefill`, so failures are forgotten with time and players behind one address (a
/// NAT, a proxy) do not lock each other out for good. An empty bucket refuses with
/// `rate_limited`, taking nothing.
///
/// An attempt takes its tokens from the moment it starts, before its password is checked, so
/// that guesses sent in parallel are counted at once: of any burst for one name from one address,
/// at most `failedLoginsBeforeThrottle` get as far as the hash. A success gives the name its
/// whole bucket back and the address its token. Nothing is counted per name alone, so a stranger
/// guessing at a player's name from elsewhere cannot keep them out: a correct password from an
/// address with tokens always gets through. Names reach here already checked (`isValidName`),
/// so a key is at most 20 bytes and an address.
struct LoginThrottle: Sendable {
    private struct Pair: Hashable, Sendable {
        var address: String
        var name: String
    }

    private let perName: KeyedBuckets<Pair>
    private let perAddress: KeyedBuckets<String>

    init(_ settings: ServerSettings) {
        let perSecond = 1 / max(0.001, settings.failedLoginRefill.inSeconds)
        perName = KeyedBuckets(
            capacity: Double(settings.failedLoginsBeforeThrottle), perSecond: perSecond, clock: settings.clock
        )
        perAddress = KeyedBuckets(
            capacity: Double(settings.failedLoginsPerAddressBeforeThrottle), perSecond: perSecond,
            clock: settings.clock)
    }

    /// Counts an attempt to log in as `name` from `address` before its password is checked;
    /// refuses with `rate_limited`, counting nothing, while either bucket is empty.
    func begin(name: String, address: String) throws(ProtocolError) {
        let pair = Pair(address: address, name: name.lowercased())
        guard perName.take(pair) else {
            throw ProtocolError(.rateLimited, "too many failed logins for this name; try again later")
        }
        guard perAddress.take(address) else {
            perName.giveBack(pair)
            throw ProtocolError(.rateLimited, "too many failed logins from your address; try again later")
        }
    }

    /// Whether `address` has no failed login that still counts: its requests for a hash go
    /// before those of addresses that have been failing (`HashingPool.Standing`).
    func isClean(_ address: String) -> Bool { perAddress.isFull(address) }

    /// The attempt begun for `name` from `address` had the right password: the name is clear
    /// again from there, and the address gets this attempt's token back.
    func succeeded(name: String, address: String) {
        perName.fill(Pair(address: address, name: name.lowercased()))
        perAddress.giveBack(address)
    }

    /// The attempt begun was never checked (the server was too busy): it counts for nothing.
    func withdrawn(name: String, address: String) {
        perName.giveBack(Pair(address: address, name: name.lowercased()))
        perAddress.giveBack(address)
    }
}
