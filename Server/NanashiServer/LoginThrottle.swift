import NanashiProtocol

/// Counts failed logins per (address, name) and per address, and refuses further attempts from
/// there for a while once there are too many, the wait doubling with each failure.
///
/// An attempt counts as a failure from the moment it starts, before its password is checked, so
/// that guesses sent in parallel are counted at once: of any burst for one name from one address,
/// at most `freeFailures` get as far as the hash. A success takes its own count back. Nothing is
/// counted per name alone, so a stranger guessing at a player's name from elsewhere cannot keep
/// them out: a correct password from an address without failures always gets through.
actor LoginThrottle {
    private enum Key: Hashable {
        case name(address: String, name: String)
        case address(String)
    }

    private struct Entry {
        var count: Int
        var last: ContinuousClock.Instant
    }

    private let freeFailures: Int
    private let freeAddressFailures: Int
    private let delay: Duration
    private var failures: [Key: Entry] = [:]
    private static let maximumDelay = Duration.seconds(15 * 60)

    init(freeFailures: Int, freeAddressFailures: Int, delay: Duration) {
        self.freeFailures = freeFailures
        self.freeAddressFailures = freeAddressFailures
        self.delay = delay
    }

    /// Counts an attempt to log in as `name` from `address` before its password is checked;
    /// refuses with `rate_limited`, counting nothing, while either is locked out.
    func begin(name: String, address: String) throws(ProtocolError) {
        let pair = Key.name(address: address, name: name.lowercased())
        let whole = Key.address(address)
        let now = ContinuousClock.now
        if isLocked(pair, free: freeFailures, now: now) {
            throw ProtocolError(.rateLimited, "too many failed logins for this name; try again later")
        }
        if isLocked(whole, free: freeAddressFailures, now: now) {
            throw ProtocolError(.rateLimited, "too many failed logins from your address; try again later")
        }
        for key in [pair, whole] {
            failures[key] = Entry(count: (failures[key]?.count ?? 0) + 1, last: now)
        }
        if failures.count > 100_000 { forgetOld(now: now) }
    }

    /// The attempt begun for `name` from `address` had the right password: the name is clear
    /// again from there, and the address's count loses this attempt.
    func succeeded(name: String, address: String) {
        failures[.name(address: address, name: name.lowercased())] = nil
        withdraw(.address(address))
    }

    /// The attempt begun was never checked (the server was too busy): it counts for nothing.
    func withdrawn(name: String, address: String) {
        withdraw(.name(address: address, name: name.lowercased()))
        withdraw(.address(address))
    }

    private func withdraw(_ key: Key) {
        guard let entry = failures[key] else { return }
        failures[key] = entry.count > 1 ? Entry(count: entry.count - 1, last: entry.last) : nil
    }

    private func isLocked(_ key: Key, free: Int, now: ContinuousClock.Instant) -> Bool {
        guard let entry = failures[key], entry.count >= free else { return false }
        let doublings = min(entry.count - free, 20)
        return now < entry.last + min(delay * (1 << doublings), Self.maximumDelay)
    }

    /// Keeps the table bounded when many names or addresses are tried.
    private func forgetOld(now: ContinuousClock.Instant) {
        failures = failures.filter { now - $0.value.last < Self.maximumDelay }
    }
}
