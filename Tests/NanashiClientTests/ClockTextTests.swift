import NanashiClient
import NanashiCore
import NanashiProtocol
import Testing

@Test(arguments: [
    (300_000 as Int64, "5:00.0"), (298_249, "4:58.2"), (59_999, "0:59.9"), (100, "0:00.1"), (99, "0:00.0"),
    (0, "0:00.0"), (-1500, "0:00.0"), (3_599_999, "59:59.9"), (3_600_000, "1:00:00"), (10_923_999, "3:02:03"),
])
func clocksShowTenthsRoundedDown(milliseconds: Int64, text: String) {
    #expect(ClockText.format(milliseconds: milliseconds) == text)
}

@Test func bothClocksOnOneLineMarkTheSideToMove() {
    let clocks = Clocks(x: 298_249, o: 300_000)
    #expect(ClockText.line(clocks, toMove: .x) == "*x 4:58.2   o 5:00.0")
    #expect(ClockText.line(clocks, toMove: .o) == " x 4:58.2  *o 5:00.0")
    #expect(ClockText.line(clocks, toMove: nil) == " x 4:58.2   o 5:00.0")
}

@Test(arguments: [(0, "0:00"), (7, "0:07"), (61, "1:01"), (750, "12:30"), (-3, "0:00")])
func timeWaitedIsMinutesAndSeconds(seconds: Int, text: String) {
    #expect(ClockText.waited(seconds: seconds) == text)
}
