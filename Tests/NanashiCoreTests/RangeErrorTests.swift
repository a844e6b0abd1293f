import Testing

@testable import NanashiCore

@Test func aNumberOutOfItsRangeIsOneLineThatSaysTheRange() throws {
    try (1...20).check(20, "depth")
    #expect(throws: RangeError(name: "depth", value: 0, range: 1...20, unit: nil)) {
        try (1...20).check(0, "depth")
    }
    #expect(
        RangeError(name: "depth", value: 0, range: 1...20, unit: nil).description
            == "bad depth 0: use 1 to 20")
    #expect(
        RangeError(name: "hash", value: 5000, range: 1...4096, unit: "MB").description
            == "bad hash 5000: use 1 to 4096 MB")
    #expect(
        RangeError(name: "--offset", value: -1, range: 0...Int.max, unit: nil).description
            == "bad --offset -1: use 0 or more")
}
