import Foundation
import NanashiCore
import Testing

@testable import NanashiWeb

/// The end of a game is worded by the core alone: the pages that show one (playing, watching)
/// carry the core's words for every end, and the script has none of its own.
@Suite struct VerdictsTests {
    let site = WebSite(source: FakeSource(inProgress: [9]))

    /// The verdicts block of a page, read as the script reads it.
    func verdicts(on target: String) async throws -> [String: String]? {
        let html = await site.respond(to: WebRequest(method: "GET", target: target)).text
        guard let open = html.firstRange(of: #"<script type="application/json" id="verdicts">"#) else {
            return nil
        }
        let close = try #require(html[open.upperBound...].firstRange(of: "</script>"))
        return try JSONDecoder().decode(
            [String: String].self, from: Data(html[open.upperBound..<close.lowerBound].utf8))
    }

    @Test(arguments: ["/play", "/game/9"])
    func aPageThatShowsAnEndCarriesTheCoresWords(target: String) async throws {
        let verdicts = try #require(try await verdicts(on: target))
        // Every reason, won by x, by o, or drawn.
        #expect(verdicts.count == Outcome.Reason.allCases.count * 3)
        #expect(verdicts["x pieces"] == "x wins (o has no pieces left)")
        #expect(verdicts["draw locked"] == "draw (no one can move: the board is locked)")
        #expect(verdicts["draw fifty"] == "draw (fifty-move rule: 100 plies without a clone)")
        #expect(verdicts["o resign"] == "o wins (x resigned)")
        #expect(verdicts["x timeout"] == "x wins (o ran out of time)")
        #expect(verdicts["o abandon"] == "o wins (x left the game)")
        #expect(verdicts["draw aborted"] == "draw (aborted: a side made no first move in time; unrated)")
    }

    @Test func pagesThatShowNoEndCarryNone() async throws {
        for target in ["/", "/player/ann"] {
            #expect(try await verdicts(on: target) == nil, "\(target)")
        }
    }

    @Test func theScriptHasNoWordingOfItsOwn() {
        let script = String(decoding: Assets.script, as: UTF8.self)
        #expect(script.contains("getElementById('verdicts')"))
        for wording in [
            "REASONS", "no pieces left", "plies without a clone", "time ran out", "a player left",
        ] {
            #expect(!script.contains(wording), "\(wording)")
        }
    }
}
