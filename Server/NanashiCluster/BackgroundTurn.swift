import Foundation

/// The turns at background analysis are counted in whole milliseconds (intervals as
/// `Duration.wholeMilliseconds`), so that a node's round one interval after the last turn is a
/// turn again, whatever the rounding of dates.
enum BackgroundTurn {
    /// `date` in milliseconds since 1970, rounded.
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
