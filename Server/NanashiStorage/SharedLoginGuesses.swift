import Foundation

/// The failed-login buckets per (address, name) of `LoginThrottle`, kept where several servers
/// share them (PostgreSQL), so that guesses at one name from one address count on every server:
/// spreading them over servers does not multiply them. Same rule as the local bucket: an attempt
/// takes a token before its password is checked, a token comes back every `refill`, a success
/// clears the bucket. Times are wall-clock seconds, which the servers share.
package protocol SharedLoginGuesses: Sendable {
    /// Takes a token for an attempt; `false`, taking nothing, when the bucket is empty.
    func takeGuess(address: String, name: String, capacity: Int, refill: Duration, now: Date) async throws
        -> Bool

    /// Gives back the token of an attempt that was never checked.
    func giveBackGuess(address: String, name: String, capacity: Int) async throws

    /// Forgets the failures: the right password was given.
    func clearGuesses(address: String, name: String) async throws
}
