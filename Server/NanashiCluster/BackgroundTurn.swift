import Foundation

/// The turns at background analysis are counted in whole milliseconds, so that a node's round
/// one interval after the last turn is a turn again, whatever the rounding of dates.
enum BackgroundTurn {
    /// `date` in milliseconds since 1970, rounded.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// `duration` in milliseconds, rounded.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + Int64((Double(attoseconds) / 1e15).rounded())
    }
}
