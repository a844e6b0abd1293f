import NanashiProtocol

/// `/player/NAME`: a player's rating and record, and their finished games, newest first, paged.
struct PlayerPage {
    static let pageSize = 20

    var profile: Profile
    var archive: GameArchive
    /// The game the page starts before, when paging back.
    var before: Int64?
    /// The engine's levels, for its players' strength (`strengthText`).
    var levels: [LevelEntry] = []

    var html: String {
        page(title: profile.name, body: summary + games)
    }

    private var summary: String {
        if let level = GamePlayer.engineLevel(named: profile.name) {
            // The engine's player: its level's strength (the server keeps it at an unrated 1500,
            // with no rank and no rated games), and a game against it rather than a challenge.
            let strength = strengthText(
                GamePlayer(name: profile.name, rating: profile.rating), levels: levels)
            return """
                <section class="profile">
                <h1>\(escaped(profile.name))</h1>
                <dl>
                <dt>strength</dt><dd>\(strength) <span class="quiet">(the server's engine at level \(level); its games are unrated)</span></dd>
                </dl>
                <p><a class="button" href="/play?level=\(level)#computer">Play \(escaped(profile.name))</a></p>
                </section>

                """
        }
        let rank = profile.rank.map { "#\($0)" } ?? "not ranked yet"
        return """
            <section class="profile">
            <h1>\(escaped(profile.name))</h1>
            <dl>
            <dt>rating</dt><dd>\(ratingText(profile.rating, rd: profile.rd, provisional: profile.rd >= 110))</dd>
            <dt>rank</dt><dd>\(rank)</dd>
            <dt>games</dt><dd>\(profile.games): \(profile.wins) won, \(profile.losses) lost, \(profile.draws) drawn</dd>
            </dl>
            <p><a class="button" href="/play?challenge=\(escaped(pathSegment(profile.name)))#friend">Challenge \(escaped(profile.name))</a></p>
            </section>

            """
    }

    private var games: String {
        let own = archive.name
        guard !archive.games.isEmpty else {
            let text = before == nil ? "No finished games yet." : "No older games."
            return "<section><h2>Games</h2><p class=\"quiet\">\(text)</p></section>\n"
        }
        let rows = archive.games.map { game in
            let side = game.x.name == own ? "x" : "o"
            let opponent = side == "x" ? game.o : game.x
            let result =
                game.outcome.winner.map { $0.rawValue == side ? "won" : "lost" } ?? "draw"
            return """
                <tr><td><a href="/game/\(game.game)">#\(game.game)</a></td>\
                <td><time datetime="\(escaped(game.ended))">\(escaped(Self.shortDate(game.ended)))</time></td>\
                <td><span class="disc \(side)"></span> \(side)</td>\
                <td>\(playerLink(opponent.name)) <span class="quiet">\(strengthText(opponent, levels: levels))</span></td>\
                <td class="result \(result)">\(result)</td><td>\(escaped(game.outcome.reason.rawValue))</td>\
                <td class="num">\(game.plies)</td></tr>
                """
        }
        let older =
            archive.games.count == Self.pageSize
            ? "<a rel=\"next\" href=\"/player/\(escaped(pathSegment(own)))?before=\(archive.games.last!.game)\">older games →</a>"
            : ""
        let newest = before == nil ? "" : "<a href=\"/player/\(escaped(pathSegment(own)))\">← newest</a>"
        return """
            <section><h2>Games</h2>
            <div class="scroll"><table class="games">
            <thead><tr><th>game</th><th>ended</th><th>side</th><th>opponent</th><th>result</th><th>reason</th><th class="num">plies</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody></table></div>
            <p class="pager">\(newest) \(older)</p>
            </section>

            """
    }

    /// `2026-11-23 18:31` from `2026-11-23T18:31:05Z`.
    static func shortDate(_ iso: String) -> String {
        String(iso.prefix(16).map { $0 == "T" ? " " : $0 })
    }
}
