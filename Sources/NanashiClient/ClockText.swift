import NanashiCore
import NanashiProtocol

/// Clocks as a player reads them: `4:58.2`, `1:02:03` past an hour.
public enum ClockText {
    /// Time left on one clock; tenths are shown under an hour and always rounded down, so a
    /// clock reads `0:00.0` only when it has run out.
    public static func format(milliseconds: Int64) -> String {
        let left = max(0, milliseconds)
        let tenths = left / 100
        let seconds = tenths / 10
        if seconds >= 3600 {
            return "\(seconds / 3600):\(twoDigits((seconds / 60) % 60)):\(twoDigits(seconds % 60))"
        }
        return "\(seconds / 60):\(twoDigits(seconds % 60)).\(tenths % 10)"
    }

    /// Both clocks on one line: `x 4:58.2   o 5:00.0`, the side to move marked with `*`.
    public static func line(_ clocks: Clocks, toMove: Side?) -> String {
        [Side.x, .o].map { side in
            (side == toMove ? "*" : " ") + "\(side) " + format(milliseconds: clocks[side])
        }.joined(separator: "  ")
    }

    /// A time waited, in whole seconds: `0:07`, `12:30`.
    public static func waited(seconds: Int) -> String {
        let seconds = max(0, seconds)
        return "\(seconds / 60):\(twoDigits(seconds % 60))"
    }

    private static func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func twoDigits(_ value: Int) -> String { twoDigits(Int64(value)) }
}
