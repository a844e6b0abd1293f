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
