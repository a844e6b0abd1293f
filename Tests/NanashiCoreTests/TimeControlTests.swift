import Foundation
import NanashiCore
import Testing

@Test func wholeSecondsAreHeldAsMilliseconds() {
    #expect(
        TimeControl(initial: 300, increment: 3)
            == TimeControl(initialMilliseconds: 300_000, incrementMilliseconds: 3_000))
    #expect(TimeControl.standard == TimeControl(initial: 300, increment: 3))
    // A match's fractions of a second read as whole seconds, rounded down.
    var match = TimeControl(initialMilliseconds: 10_500, incrementMilliseconds: 100)
    #expect(match.initial == 10 && match.increment == 0)
    match.increment = 2
    #expect(match == TimeControl(initialMilliseconds: 10_500, incrementMilliseconds: 2_000))
}

@Test func theWireCarriesWholeSecondsWithDefaultsWhenMissing() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(TimeControl(initial: 60, increment: 0)), as: UTF8.self)
    #expect(text == #"{"increment":0,"initial":60}"#)
    let decoder = JSONDecoder()
    #expect(
        try decoder.decode(TimeControl.self, from: Data(text.utf8)) == TimeControl(initial: 60, increment: 0))
    #expect(try decoder.decode(TimeControl.self, from: Data("{}".utf8)) == .standard)
}

/// Seconds from the wire too large for milliseconds in 64 bits are held at the bounds, never
/// trapping (a seek line with them once stopped the whole server); the server's limits then
/// refuse them.
@Test func secondsBeyondSixtyFourBitMillisecondsAreHeldAtTheBounds() throws {
    let huge = TimeControl(initial: 10_000_000_000_000_000, increment: -10_000_000_000_000_000)
    #expect(huge.initialMilliseconds == .max && huge.incrementMilliseconds == .min)
    #expect(huge.initial == 9_223_372_036_854_775 && huge.increment == -9_223_372_036_854_775)
    var control = TimeControl.standard
    control.initial = .max
    control.increment = .min
    #expect(control == TimeControl(initialMilliseconds: .max, incrementMilliseconds: .min))
    let decoded = try JSONDecoder().decode(
        TimeControl.self, from: Data(#"{"initial":9223372036854775807,"increment":3}"#.utf8))
    #expect(decoded == TimeControl(initialMilliseconds: .max, incrementMilliseconds: 3_000))
}
