import NanashiCore
import Testing

@Test(arguments: [
    ("5+3", 300, 3), ("1+0", 60, 0), ("3", 180, 0), (" 10 + 5 ", 600, 5), ("0.5+1", 30, 1),
    ("180+600", 10800, 600),
])
func timeControlsReadAsMinutesPlusSeconds(text: String, initial: Int, increment: Int) throws {
    #expect(try TimeControl(parsing: text) == TimeControl(initial: initial, increment: increment))
}

@Test(arguments: [
    ("", TimeControlParseError.notATimeControl("")),
    ("5+", .notATimeControl("5+")),
    ("+3", .notATimeControl("+3")),
    ("5+3+1", .notATimeControl("5+3+1")),
    ("five", .notATimeControl("five")),
    ("5+1.5", .notATimeControl("5+1.5")),
    ("-1+3", .notATimeControl("-1+3")),
    ("0+3", .initialOutOfRange("0+3")),
    ("0.2+0", .initialOutOfRange("0.2+0")),
    ("181+0", .initialOutOfRange("181+0")),
    ("5+601", .incrementOutOfRange("5+601")),
])
func badTimeControlsAreRefused(text: String, error: TimeControlParseError) {
    #expect(throws: error) { try TimeControl(parsing: text) }
}

@Test func badTimeControlMessagesSayHowToWriteOne() {
    #expect(
        TimeControlParseError.notATimeControl("x").description
            == "bad time control 'x': write MINUTES+SECONDS, like 5+3 (five minutes, three seconds a move)")
    #expect(
        TimeControlParseError.incrementOutOfRange("5+601").description
            == "bad time control '5+601': the increment is 0 to 600 seconds")
}

@Test(arguments: [(300, 3, "5+3"), (30, 1, "0.5+1"), (90, 0, "1.5+0"), (10800, 600, "180+600")])
func timeControlsAreWrittenAsTheyAreRead(initial: Int, increment: Int, text: String) throws {
    let control = TimeControl(initial: initial, increment: increment)
    #expect(control.description == text)
    #expect(try TimeControl(parsing: text) == control)
}

@Test(arguments: [
    (15, 0, true), (10800, 600, true), (14, 0, false), (1, 0, false), (0, 3, false), (10801, 0, false),
    (60, 601, false), (60, -1, false),
])
func theServersLimitsAreDefinedOnce(initial: Int, increment: Int, accepted: Bool) {
    #expect(TimeControl(initial: initial, increment: increment).isWithinLimits == accepted)
}
