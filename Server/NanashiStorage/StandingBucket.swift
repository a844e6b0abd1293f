/// Ranked players are counted per bucket of rating points (table `standing_bucket`), so that a
/// rank or a deep leaderboard page reads a few hundred buckets and one bucket of players rather
/// than every player above.
package enum StandingBucket {
    /// The rating points per bucket; a power of two, so `rating / 8` is exact in SQL and in Swift.
    package static let width = 8.0

    /// The bucket of a rating, as SQLite's triggers and PostgreSQL's `floor(rating / 8)` compute it.
    package static func of(_ rating: Double) -> Int64 { Int64((rating / width).rounded(.down)) }
}
