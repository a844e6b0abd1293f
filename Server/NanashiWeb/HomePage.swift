import NanashiCore
import NanashiProtocol

/// `/`: the search by name, the games in progress and a page of the leaderboard.
struct HomePage {
    static let pageSize = 25

    var leaderboard: Leaderboard
    var offset: Int
    var live: [LiveGame]
    /// A name searched for that nobody has.
    var notFound: String?
    /// The engine's levels, for its players' strength (`strengthText`).
    var levels: [LevelEntry] = []

    var html: String {
        page(title: "Leaderboard", body: search + liveGames + standings)
    }

    private var search: String {
        let notice =
            notFound.map { "<p class=\"notice\" role=\"status\">No player is called “\(escaped($0))”.</p>" }
            ?? ""
        return """
            <section class="search">
            <form method="get" action="/" role="search">
            <label for="name">Find a player</label>
            <input id="name" name="name" type="search" maxlength="40" autocomplete="off" required>
            <button type="submit">Search</button>
            </form>
            \(notice)
            </section>

            """
    }

    private var liveGames: String {
        guard !live.isEmpty else {
            return
                "<section><h2>Live games</h2><p class=\"quiet\">No game is being played right now.</p></section>\n"
        }
        let rows = live.map { game in
            """
            <tr><td><a href="/game/\(game.game)">#\(game.game)</a></td>\
            <td>\(playerLink(game.x.name)) <span class="quiet">\(strengthText(game.x, levels: levels))</span></td>\
            <td>\(playerLink(game.o.name)) <span class="quiet">\(strengthText(game.o, levels: levels))</span></td>\
            <td>\(game.control)</td>\
            <td class="num">\(game.ply)</td><td><a href="/game/\(game.game)">watch</a></td></tr>
            """
        }
        return """
            <section><h2>Live games</h2>
            <div class="scroll"><table class="live">
            <thead><tr><th>game</th><th><span class="disc x"></span> x</th><th><span class="disc o"></span> o</th><th>time</th><th class="num">ply</th><th></th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table></div></section>

            """
    }

    private var standings: String {
        let entries = leaderboard.entries
        guard !entries.isEmpty else {
            guard leaderboard.total > 0 else {
                return "<section><h2>Leaderboard</h2><p class=\"quiet\">No rated games yet.</p></section>\n"
            }
            // Past the end (an old link, or an offset typed in): the way back to the last page.
            let last = max(0, leaderboard.total - Self.pageSize)
            return """
                <section><h2>Leaderboard</h2><p class="quiet">This page is past the end of the \
                \(leaderboard.total) rated players. <a rel="prev" href="/?offset=\(last)">← the last page</a></p>\
                </section>

                """
        }
        let rows = entries.map { entry in
            """
            <tr><td class="num">\(entry.rank)</td><td>\(playerLink(entry.name))</td>\
            <td class="num">\(ratingText(entry.rating, rd: entry.rd, provisional: entry.provisional))</td>\
            <td class="num">\(entry.games)</td><td class="num">\(entry.wins)</td>\
            <td class="num">\(entry.losses)</td><td class="num">\(entry.draws)</td></tr>
            """
        }
        let first = offset + 1
        let last = offset + entries.count
        var links: [String] = []
        if offset > 0 {
            links.append("<a rel=\"prev\" href=\"/?offset=\(max(0, offset - Self.pageSize))\">← better</a>")
        }
        if last < leaderboard.total {
            links.append("<a rel=\"next\" href=\"/?offset=\(last)\">worse →</a>")
        }
        return """
            <section><h2>Leaderboard</h2>
            <div class="scroll"><table class="standings">
            <thead><tr><th class="num">#</th><th>name</th><th class="num">rating</th><th class="num">games</th><th class="num">won</th><th class="num">lost</th><th class="num">drawn</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table></div>
            <p class="pager">\(first)–\(last) of \(leaderboard.total) rated players; <abbr class="provisional">?</abbr> = provisional (the rating is still settling) \(links.joined(separator: " "))</p>
            </section>

            """
    }
}
