import Testing

@testable import NanashiTerminal

@Suite struct KeyDecoderTests {
    let start = ContinuousClock.now

    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8), at: start)
    }

    @Test func arrowsInBothModesAndHomeEnd() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OD") == [.up, .left])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [.home, .end, .home, .end])
        // Shift or Ctrl with an arrow: the same arrow.
        #expect(keys("\u{1B}[1;5C") == [.right])
    }

    @Test func charactersAndControlKeys() {
        #expect(
            keys("c3 \r\n\u{7F}\u{08}\u{03}\u{04}\u{0C}\u{15}")
                == [
                    .character("c"), .character("3"), .character(" "), .enter, .enter, .backspace, .backspace,
                    .interrupt, .endOfInput, .redraw, .eraseLine,
                ])
        #expect(keys("é") == [.character("é")])
        // Other control bytes and unknown sequences mean nothing.
        #expect(keys("\u{01}\u{1B}[2~\u{1B}[Zx") == [.character("x")])
    }

    @Test func mouseClicksInSGRMode() {
        #expect(keys("\u{1B}[<0;12;5M") == [.click(button: 0, column: 12, row: 5)])
        #expect(keys("\u{1B}[<2;1;1M") == [.click(button: 2, column: 1, row: 1)])
        // The release, a drag and the wheel are not clicks.
        #expect(keys("\u{1B}[<0;12;5m\u{1B}[<32;13;5M\u{1B}[<64;12;5M") == [])
        #expect(keys("\u{1B}[<0;12M\u{1B}[<0;0;5M") == [])
    }

    @Test func aSequenceSplitAcrossReadsIsOneKey() {
        var decoder = KeyDecoder()
        let click = Array("\u{1B}[<0;12;5M".utf8)
        for byte in click.dropLast() {
            #expect(decoder.feed([byte], at: start) == [])
        }
        #expect(decoder.feed([click.last!], at: start) == [.click(button: 0, column: 12, row: 5)])
        #expect(decoder.feed(Array("\u{1B}".utf8), at: start) == [])
        #expect(decoder.feed(Array("[".utf8), at: start.advanced(by: .milliseconds(10))) == [])
        #expect(
            decoder.feed(Array("Bj".utf8), at: start.advanced(by: .milliseconds(20))) == [
                .down, .character("j"),
            ])
        #expect(decoder.deadline == nil)
        // A character of two UTF-8 bytes, split.
        #expect(decoder.feed([0xC3], at: start) == [])
        #expect(decoder.feed([0xA9], at: start) == [.character("é")])
    }

    @Test func aLoneEscapeIsEscOnceNothingFollowsInTime() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B], at: start) == [])
        #expect(decoder.deadline == start.advanced(by: KeyDecoder.escapeDelay))
        #expect(decoder.expire(at: start.advanced(by: .milliseconds(49))) == [])
        #expect(decoder.expire(at: start.advanced(by: .milliseconds(50))) == [.escape])
        #expect(decoder.deadline == nil)
        #expect(decoder.expire(at: start.advanced(by: .seconds(1))) == [])
        // Esc then a key at once (Alt-key in some terminals): both.
        #expect(decoder.feed(Array("\u{1B}q".utf8), at: start) == [.escape, .character("q")])
        // Two Escs in a row: the first at once, the second when its time is up.
        #expect(decoder.feed([0x1B, 0x1B], at: start) == [.escape])
        #expect(decoder.expire(at: start.advanced(by: .milliseconds(50))) == [.escape])
    }

    @Test func anUnfinishedSequenceIsDroppedAtItsDeadline() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[<0;1".utf8), at: start) == [])
        #expect(decoder.expire(at: start.advanced(by: .milliseconds(50))) == [])
        #expect(decoder.deadline == nil)
        #expect(decoder.feed(Array("k".utf8), at: start) == [.character("k")])
    }
}
