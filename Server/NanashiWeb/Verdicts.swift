import NanashiCore
import NanashiProtocol

/// The core's words for every end of a game (`Outcome.verdict`), keyed as `Outcome.description`
/// writes an outcome (`x pieces`, `draw fifty`): the pages that show a game end (playing and
/// watching) carry them, and the script words an `end` with them, so there is one wording.
enum Verdicts {
    /// The block of the page the script reads them from.
    static let block = """
        <script type="application/json" id="verdicts">\(scriptJSON(all))</script>
        """

    static var all: [String: String] {
        var verdicts: [String: String] = [:]
        for reason in Outcome.Reason.allCases {
            for winner in [Side.x, .o, nil] {
                let outcome = Outcome(winner: winner, reason: reason)
                verdicts[outcome.description] = outcome.verdict
            }
        }
        return verdicts
    }
}
