import Foundation
import NanashiAI
import NanashiCore
import NanashiProtocol
import Synchronization
import Testing

@testable import NanashiWeb

/// A name no real player can have, to show that every page escapes what it prints.
let hostile = #"<script>alert("x")</script>&'"#
let hostileEscaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"

/// Counts what a source is asked.
final class Asked: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The pages' data, made up: one hostile player among ordinary ones.
struct FakeSource: WebSource {
    var finished: [Int64: FinishedGameRecord] = [:]
    var inProgress: Set<Int64> = []
    var analyses: [Int64: GameAnalysis] = [:]
    /// How many times a finished game was read.
    var finishedReads = Asked()
    var levels = Level.all.map { LevelEntry(level: $0.number, elo: $0.elo) }
    /// Games in progress besides the one every test sees.
    var moreLive: [LiveGame] = []

    func leaderboard(limit: Int, offset: Int) async throws -> Leaderboard {
        let entries = [
            LeaderboardEntry(
                rank: 1, name: hostile, rating: 1662, rd: 290, games: 1, wins: 1, losses: 0, draws: 0,
                provisional: true),
            LeaderboardEntry(
                rank: 2, name: "ann", rating: 1338, rd: 60, games: 30, wins: 10, losses: 19, draws: 1,
                provisional: false),
        ]
        return Leaderboard(total: 60, entries: Array(entries.dropFirst(min(offset, 2)).prefix(limit)))
    }

    func profile(name: String) async throws -> Profile? {
        if name == "AI level 3" {
            return Profile(
                name: name, rating: 1500, rd: 350, rank: nil, games: 0, wins: 0, losses: 0, draws: 0,
                recent: [])
        }
        guard name == hostile || name.lowercased() == "ann" else { return nil }
        return Profile(
            name: name == hostile ? hostile : "ann", rating: 1338, rd: 60, rank: 2, games: 30, wins: 10,
            losses: 19,
            draws: 1,
            recent: [])
    }

    func finishedGames(name: String, before: Int64?, limit: Int) async throws -> GameArchive? {
        guard let profile = try await profile(name: name) else { return nil }
        let games = (1...Int64(45)).reversed().filter { $0 < (before ?? .max) }.prefix(limit).map { id in
            ArchivedGame(
                game: id, x: GamePlayer(name: profile.name, rating: 1500),
                o: GamePlayer(name: hostile, rating: 1400),
                outcome: Outcome(winner: id % 2 == 0 ? .x : .o, reason: .noPieces), plies: 12,
                ended: "2026-11-23T18:31:05Z")
        }
        return GameArchive(name: profile.name, games: Array(games))
    }

    func finishedGame(id: Int64) async throws -> FinishedGameRecord? {
        finishedReads.add()
        return finished[id]
    }

    func liveGames() async -> [LiveGame] {
        [
            LiveGame(
                game: 7, x: GamePlayer(name: hostile, rating: 1500), o: GamePlayer(name: "bob", rating: 1490),
                control: TimeControl(initial: 300, increment: 3), ply: 12)
        ] + moreLive
    }

    func isInProgress(game: Int64) async -> Bool { inProgress.contains(game) }

    func metrics() async -> String { "nanashi_moves_total 3\n" }

    func storedAnalysis(game: Int64) async throws -> String? { analyses[game].map(Wire.encode) }
}

@Suite struct WebPagesTests {
    let site = WebSite(source: FakeSource())

    func get(_ target: String, on site: WebSite? = nil) async -> WebResponse {
        await (site ?? self.site).respond(to: WebRequest(method: "GET", target: target))
    }

    @Test func requestTargetsAreDecoded() {
        let request = WebRequest(
            method: "GET", target: "/player/a%20b?name=c+d&offset=25&name=second&bad=%zz")
        #expect(request.path == "/player/a b")
        #expect(request.query == ["name": "c d", "offset": "25"])
        #expect(WebRequest(method: "GET", target: "/x%ff").path == "")
    }

    /// The engine's player is shown at its level's strength, not at the server's unrated 1500: in
    /// the live list, and the watched game's page carries the levels its script reads it from.
    @Test func theEnginesPlayerIsShownAtItsLevelsStrength() async throws {
        var source = FakeSource()
        source.moreLive = [
            LiveGame(
                game: 8, x: GamePlayer(name: "ann", rating: 1338),
                o: GamePlayer(name: "AI level 3", rating: 1500),
                control: TimeControl(initial: 60, increment: 0), ply: 2)
        ]
        source.inProgress = [8]
        let site = WebSite(source: source)
        let home = await get("/", on: site).text
        #expect(
            home.contains(
                #"<a href="/player/AI%20level%203">AI level 3</a> <span class="quiet">about 780</span>"#))
        #expect(home.contains(#"<a href="/player/ann">ann</a> <span class="quiet">1338</span>"#))
        let live = await get("/game/8", on: site).text
        #expect(live.contains(#"{"elo":780,"level":3}"#))
        let levels = [LevelEntry(level: 3, elo: 780)]
        #expect(strengthText(GamePlayer(name: "AI level 3", rating: 1500), levels: levels) == "about 780")
        #expect(strengthText(GamePlayer(name: "AI level 4", rating: 1500), levels: levels) == "1500")
        #expect(strengthText(GamePlayer(name: "ann", rating: 1338), levels: levels) == "1338")
    }

    @Test func theHomePageEscapesNamesAndPages() async {
        let response = await get("/")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "text/html; charset=utf-8")
        let html = response.text
        #expect(!html.contains("<script>alert"))
        #expect(
            html.contains(
                "<a href=\"/player/%3Cscript%3Ealert%28%22x%22%29%3C%2Fscript%3E%26%27\">\(hostileEscaped)</a>"
            ))
        #expect(
            html.contains(
                #"<td class="num">1662 ± 290 <abbr class="provisional" title="provisional rating">?</abbr></td>"#
            ))
        #expect(html.contains(#"<td class="num">1338 ± 60</td>"#))
        #expect(html.contains(#"<a href="/game/7">#7</a>"#))
        #expect(html.contains("<td>5+3</td><td class=\"num\">12</td>"))
        #expect(html.contains("1–2 of 60 rated players"))
        #expect(html.contains(#"<a rel="next" href="/?offset=2">worse →</a>"#))
        #expect(!html.contains(#"rel="prev""#))
        #expect(response.header("content-security-policy")?.contains("default-src 'self'") == true)
    }

    /// A page past the end of the leaderboard says so and leads back to its last page.
    @Test func aLeaderboardPagePastTheEndLeadsBack() async {
        let html = await get("/?offset=100").text
        #expect(
            html.contains(
                #"This page is past the end of the 60 rated players. <a rel="prev" href="/?offset=35">← the last page</a>"#
            ))
        #expect(!html.contains("No rated games yet."))
    }

    @Test func aSearchFindsAPlayerOrSaysSoEscaped() async {
        let found = await get("/?name=ANN")
        #expect(found.status == 303)
        #expect(found.header("location") == "/player/ann")
        let missing = await get("/?name=%3Cb%3Enobody")
        #expect(missing.status == 200)
        #expect(missing.text.contains("No player is called “&lt;b&gt;nobody”."))
    }

    @Test func aPlayerPageListsGamesPagedAndEscaped() async {
        let response = await get("/player/ann")
        #expect(response.status == 200)
        let html = response.text
        #expect(html.contains("<h1>ann</h1>"))
        #expect(html.contains("<dd>1338 ± 60</dd>"))
        #expect(html.contains("<dd>#2</dd>"))
        #expect(
            html.contains(#"<p><a class="button" href="/play?challenge=ann#friend">Challenge ann</a></p>"#))
        #expect(html.contains(#"<td><a href="/game/45">#45</a></td>"#))
        #expect(html.contains(#"<time datetime="2026-11-23T18:31:05Z">2026-11-23 18:31</time>"#))
        #expect(html.contains(#"<td class="result lost">lost</td>"#))
        #expect(html.contains(#"<a rel="next" href="/player/ann?before=26">older games →</a>"#))
        #expect(!html.contains("<script>alert"))
        let older = await get("/player/ann?before=6")
        #expect(older.text.contains(#"<a href="/game/5">#5</a>"#))
        #expect(!older.text.contains("older games"))
        #expect(older.text.contains(#"<a href="/player/ann">← newest</a>"#))
        let hostilePage = await get("/player/\(pathSegment(hostile))")
        #expect(hostilePage.status == 200)
        #expect(hostilePage.text.contains("<h1>\(hostileEscaped)</h1>"))
        #expect(!hostilePage.text.contains("<script>alert"))
        let nobody = await get("/player/%3Cscript%3E")
        #expect(nobody.status == 404)
        #expect(nobody.text.contains("No player is called “&lt;script&gt;”."))
        // The engine's player: its level's strength, not the unrated 1500 the server keeps it
        // at, no rank or rated record, and a game against that level rather than a challenge
        // (the play page picks the level from the link).
        let engine = await get("/player/AI%20level%203").text
        #expect(
            engine.contains(
                #"<dt>strength</dt><dd>about 780 <span class="quiet">(the server's engine at level 3; its games are unrated)</span></dd>"#
            ))
        #expect(
            !engine.contains("1500 ± 350") && !engine.contains("<dt>rank</dt>")
                && !engine.contains("Challenge"))
        #expect(
            engine.contains(#"<p><a class="button" href="/play?level=3#computer">Play AI level 3</a></p>"#))
        #expect(engine.contains(#"<td><a href="/game/45">#45</a></td>"#))
        #expect(await get("/play").text.contains(#"<h2 id="computer">Play the computer</h2>"#))
    }

    @Test func aFinishedGamePageCarriesEveryPositionAndThePGN() async throws {
        let summary = ArchivedGame(
            game: 3, x: GamePlayer(name: hostile, rating: 1500), o: GamePlayer(name: "ann", rating: 1500),
            outcome: Outcome(winner: .o, reason: .resignation), plies: 3, ended: "2026-11-23T18:31:05Z")
        let record = FinishedGameRecord(
            summary: summary, initial: 180, increment: 2, moves: ["f2", "a1c1", "f2d2"],
            pgn: "[Event \"x\"]\n")
        let source = FakeSource(finished: [3: record])
        let site = WebSite(source: source)
        let response = await get("/game/3", on: site)
        #expect(response.status == 200)
        // A finished game never changes: its page is rendered once, then served as it was.
        for _ in 0..<3 { #expect(await get("/game/3", on: site) == response) }
        #expect(source.finishedReads.value == 1)
        let html = response.text
        // Every position, and the pieces each move turned (the last jump turns c1): the script
        // steps through them with no rules of its own.
        #expect(
            html.contains(
                #"<script type="application/json" id="page-data">{"converted":[[],[],["c1"]],"fens":["x5o/7/7/7/7/7/o5x x 0 1","x5o/7/7/7/7/5x1/o5x o 0 1","x5o/7/7/7/7/5x1/2o3x x 1 2","x5o/7/7/7/7/3x3/2x3x o 2 2"],"game":3,"mode":"replay","moves":["f2","a1c1","f2d2"]}</script>"#
            ))
        #expect(html.contains("<p class=\"result\" id=\"result\">o wins (x resigned) · 0-1</p>"))
        #expect(html.contains("· 3+2</p>"))
        #expect(html.contains(#"<span id="ply" aria-live="polite">ply 0 of 3</span>"#))
        #expect(html.contains(#"<a href="/game/3/pgn" download="nanashi-3.pgn">Download PGN</a>"#))
        #expect(!html.contains("<script>alert"))
        let pgn = await get("/game/3/pgn", on: site)
        #expect(pgn.status == 200)
        #expect(pgn.header("content-type") == "application/x-chess-pgn; charset=utf-8")
        #expect(pgn.header("content-disposition") == "attachment; filename=\"nanashi-3.pgn\"")
        #expect(pgn.text == "[Event \"x\"]\n")
    }

    /// A stored analysis is served as the protocol's `analysis` line; none yet is a 404 (the page
    /// then offers its button), never a computation. The page has the graph and the button.
    @Test func aStoredAnalysisIsServedAndAMissingOneIsNotFound() async throws {
        let analysis = GameAnalysis(
            game: 3, depth: 6, evals: [10, -320, -300],
            mistakes: [.init(ply: 1, played: "a7c5", best: "f2", loss: 330)])
        let site = WebSite(source: FakeSource(analyses: [3: analysis]))
        let stored = await get("/game/3/analysis", on: site)
        #expect(stored.status == 200 && stored.header("content-type") == "application/json")
        #expect(
            stored.text
                == #"{"accuracy":{"o":{"accurate":1,"average_loss":20,"moves":1,"percent":100},"x":{"accurate":0,"average_loss":330,"moves":1,"percent":0}},"depth":6,"evals":[10,-320,-300],"game":3,"mistakes":[{"best":"f2","loss":330,"played":"a7c5","ply":1}],"type":"analysis","unit":"centipieces"}"#
        )
        for target in ["/game/4/analysis", "/game/x/analysis", "/game/0/analysis"] {
            #expect(await get(target, on: site).status == 404, "\(target)")
        }
        let record = FinishedGameRecord(
            summary: ArchivedGame(
                game: 3, x: GamePlayer(name: "ann", rating: 1500),
                o: GamePlayer(name: "AI level 4", rating: 1500),
                outcome: Outcome(winner: .o, reason: .resignation), plies: 1, ended: "2026-11-23T18:31:05Z"),
            initial: 180, increment: 2, moves: ["a7c5"], pgn: "")
        let page = await get("/game/3", on: WebSite(source: FakeSource(finished: [3: record]))).text
        #expect(page.contains(#"<svg class="eval-graph" id="eval-graph" viewBox="0 0 300 100""#))
        #expect(
            page.contains(
                #"<button type="button" id="analyse-button" hidden>Analyse with the engine</button>"#))
    }

    @Test func aGameInProgressIsWatchedAndOthersAreNotFound() async {
        let site = WebSite(source: FakeSource(inProgress: [9]))
        let live = await get("/game/9", on: site)
        #expect(live.status == 200)
        #expect(live.text.contains(#"<body data-page="watch">"#))
        #expect(live.text.contains(#"{"game":9,"levels":[{"elo":500,"level":1},"#))
        #expect(live.text.contains(#"{"elo":4700,"level":24}],"mode":"watch"}"#))
        for target in [
            "/game/10", "/game/10/pgn", "/game/9/pgn", "/game/%3Cx%3E", "/game/-1", "/nothing", "/player",
        ] {
            let response = await get(target, on: site)
            #expect(response.status == 404, "\(target)")
            #expect(!response.text.contains("<x>"))
        }
    }

    @Test func thePlayPageSendsNoPasswordAnywhereButTheSocket() async {
        let response = await get("/play")
        #expect(response.status == 200)
        let html = response.text
        #expect(html.contains(#"<body data-page="play">"#))
        #expect(html.contains(#"<option value="300+3" selected>5+3</option>"#))
        // Inputs without a name are never submitted by the form.
        #expect(html.contains(#"<input id="login-password" type="password""#))
        #expect(!html.contains("name=\"password\""))
        // Playing the computer: the 24 levels with their ratings (8 chosen), the side, and the button.
        #expect(html.contains(#"<option value="1">1 (about 500)</option>"#))
        #expect(html.contains(#"<option value="8" selected>8 (about 1500)</option>"#))
        #expect(html.contains(#"<option value="24">24 (about 4700)</option>"#))
        #expect(!html.contains(#"<option value="25""#))
        #expect(html.contains(#"<select id="ai-color"><option value="">random</option>"#))
        #expect(html.contains(#"<button type="button" id="ai-button">Play the computer</button>"#))
    }

    /// The page selects the level the engine suggests (the page's module does not depend on the
    /// engine's, so it keeps its own copy of the number); the levels it lists are its source's.
    @Test func thePlayPageSelectsTheSuggestedLevel() {
        #expect(PlayPage.defaultLevel == Level.suggested.number)
        let html = PlayPage.html(levels: [LevelEntry(level: 8, elo: 1), LevelEntry(level: 9, elo: 2)])
        #expect(
            html.contains(
                #"<option value="8" selected>8 (about 1)</option><option value="9">9 (about 2)</option>"#))
    }

    /// `Server/NanashiWeb/Resources`, as the repository has it.
    private static let resources = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(
            path: "Server/NanashiWeb/Resources")

    /// A file of `Server/NanashiWeb/Resources`, as the repository has it.
    private static func resource(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: resources.appending(path: name)))
    }

    @Test func theScriptAndStylesheetAreTheFilesBuiltIn() async throws {
        // The script's parts are every file of Resources/script, in the order of their names.
        let files = try FileManager.default.contentsOfDirectory(
            atPath: Self.resources.appending(path: "script").path)
        #expect(Assets.scriptParts.map(\.name) == files.sorted())
        let script = await get("/static/nanashi.js")
        #expect(script.status == 200 && script.header("content-type") == "text/javascript; charset=utf-8")
        let parts = try Assets.scriptParts.map { try Self.resource("script/\($0.name)") }
        #expect(script.body == parts.flatMap { $0 })
        let style = await get("/static/nanashi.css")
        #expect(style.status == 200 && style.header("content-type") == "text/css; charset=utf-8")
        #expect(style.body == (try Self.resource("nanashi.css")))
        let health = await get("/healthz")
        #expect(health.status == 200 && health.text == "ok\n")
        // The metrics are only on the operator's site, which serves nothing else.
        #expect(await get("/metrics").status == 404)
        let operators = WebSite(source: FakeSource(), part: .metrics)
        let metrics = await get("/metrics", on: operators)
        #expect(metrics.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text == "nanashi_moves_total 3\n")
        #expect(await get("/healthz", on: operators).text == "ok\n")
        #expect(await get("/", on: operators).status == 404)
    }

    @Test func onlyGetAndHeadAreServed() async {
        let post = await site.respond(to: WebRequest(method: "POST", target: "/play"))
        #expect(post.status == 405)
        #expect(post.header("allow") == "GET, HEAD")
        let head = await site.respond(to: WebRequest(method: "HEAD", target: "/healthz"))
        #expect(head.status == 200)
    }

    @Test func pageDataCannotCloseItsScriptBlock() {
        let data = PageData(mode: "watch", game: 7, moves: ["</script><b>\"&\\\n\u{1}"])
        #expect(
            data.json
                == #"{"game":7,"mode":"watch","moves":["\u003c/script\u003e\u003cb\u003e\"\u0026\\\n\u0001"]}"#
        )
    }
}
