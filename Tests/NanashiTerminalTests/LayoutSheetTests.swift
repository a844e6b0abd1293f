import NanashiCore
import Testing

@testable import NanashiTerminal

@Suite struct LayoutSheetTests {
    /// Every layout, named, with its blockers and FEN above its board; the last one exactly.
    @Test func everyLayoutIsDrawnAsABoard() {
        let text = LayoutSheet.text()
        let blocks = text.components(separatedBy: "\n\n")
        #expect(blocks.count == Layout.all.count)
        #expect(blocks.map { String($0.prefix { $0 != ":" }) } == Layout.all.map(\.name))
        #expect(
            blocks.last
                == """
                posts: c1 e1 c7 e7
                  x1-1-1o/7/7/7/7/7/o1-1-1x x 0 1
                    a  b  c  d  e  f  g
                 7  x  .  #  .  #  .  o  7
                 6  .  .  .  .  .  .  .  6
                 5  .  .  .  .  .  .  .  5
                 4  .  .  .  .  .  .  .  4
                 3  .  .  .  .  .  .  .  3
                 2  .  .  .  .  .  .  .  2
                 1  o  .  #  .  #  .  x  1
                    a  b  c  d  e  f  g

                """)
        #expect(text.hasPrefix("standard: no blockers\n  x5o/7/7/7/7/7/o5x x 0 1\n"))
        #expect(!text.contains("\u{1B}["))
    }
}
