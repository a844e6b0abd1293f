import NanashiCore
import NanashiProtocol

/// `/game/G`: a finished game on a board to step through, with its PGN; or, while it is played,
/// the board the script keeps up to date by watching it over `/ws`.
enum GamePage {
    /// A finished game: the positions after each ply, and the pieces each move turned, go to the
    /// script as data, so it needs no rules of its own to step through them.
    static func finished(_ record: FinishedGameRecord, levels: [LevelEntry] = []) throws(ReplayError)
        -> String
    {
        let game = record.summary
        let moves = try record.start.replaying(record.moves).moves
        var position = record.start
        var fens = [position.fen]
        var converted: [[Square]] = []
        for move in moves {
            converted.append(Array(position.captures(by: move)))
            position.make(unchecked: move)
            fens.append(position.fen)
        }
        let summary = game.outcome.verdict
        let data = PageData(
            mode: "replay", game: game.game, fens: fens, moves: record.moves, converted: converted)
        let moveList = record.moves.enumerated().map { ply, move in
            "<li><button type=\"button\" class=\"ply\" data-ply=\"\(ply + 1)\">\(escaped(move))</button></li>"
        }
        let body = """
            <section class="game">
            <h1>Game #\(game.game)</h1>
            \(players(x: game.x, o: game.o, initial: record.initial, increment: record.increment, levels: levels))
            <p class="result" id="result">\(escaped(summary)) · \(escaped(game.outcome.result))</p>
            \(boardArea)
            <div class="steps" role="toolbar" aria-label="step through the game">
            <button type="button" id="first" aria-label="start" title="start (Home)">«</button>
            <button type="button" id="back" aria-label="back" title="back (←)">‹</button>
            <span id="ply" aria-live="polite">ply 0 of \(record.moves.count)</span>
            <button type="button" id="forward" aria-label="forward" title="forward (→)">›</button>
            <button type="button" id="last" aria-label="end" title="end (End)">»</button>
            </div>
            \(analysisArea)
            <p class="download"><a href="/game/\(game.game)/pgn" download="nanashi-\(game.game).pgn">Download PGN</a></p>
            <ol class="moves">\(moveList.joined())</ol>
            </section>
            """
        return page(title: "Game \(game.game)", body: body, pageKind: "replay", data: data)
    }

    /// A game in progress, watched live: the script asks the server for it over `/ws`.
    static func live(game: Int64, levels: [LevelEntry] = []) -> String {
        let body = """
            <section class="game">
            <h1>Game #\(game) <span class="badge">live</span></h1>
            <p class="players" id="players">connecting…</p>
            <p class="result" id="result" aria-live="polite"></p>
            \(boardArea)
            <div class="clocks" id="clocks"><div class="clock" id="clock-x"><span class="disc x"></span> <span class="name" id="name-x">x</span> <span class="time" id="time-x">–</span></div><div class="clock" id="clock-o"><span class="disc o"></span> <span class="name" id="name-o">o</span> <span class="time" id="time-o">–</span></div></div>
            <p class="status" id="status" role="status"></p>
            </section>
            """
        return page(
            title: "Game \(game) (live)", body: body, pageKind: "watch",
            data: PageData(mode: "watch", game: game, levels: levels), showsEnds: true)
    }

    private static func players(
        x: GamePlayer, o: GamePlayer, initial: Int, increment: Int, levels: [LevelEntry]
    ) -> String {
        """
        <p class="players"><span class="disc x"></span> \(playerLink(x.name)) <span class="quiet">\(strengthText(x, levels: levels))</span> \
        v <span class="disc o"></span> \(playerLink(o.name)) <span class="quiet">\(strengthText(o, levels: levels))</span> \
        · \(TimeControl(initial: initial, increment: increment))</p>
        """
    }

    /// Where the script shows the engine's analysis: a graph of the evaluation (x up, o down)
    /// whose marked mistakes step the board there, each side's accuracy, the list of mistakes, and the button that
    /// asks for the analysis when none is stored yet.
    static let analysisArea = """
        <section class="analysis" id="analysis" aria-label="the engine's analysis">
        <svg class="eval-graph" id="eval-graph" viewBox="0 0 300 100" preserveAspectRatio="none" role="img" aria-label="evaluation graph" hidden></svg>
        <p class="quiet" id="analysis-status">Looking for the engine's analysis…</p>
        <p class="accuracy" id="accuracy" hidden></p>
        <div class="buttons"><button type="button" id="analyse-button" hidden>Analyse with the engine</button></div>
        <ol class="mistakes" id="mistakes"></ol>
        </section>
        """

    /// The board the script draws into, with the line under it that tells the counts and the last move.
    static let boardArea = """
        <div class="board-wrap"><div class="board" id="board" role="grid" aria-label="board"></div></div>
        <p class="counts" id="counts" aria-live="polite"></p>
        """
}
