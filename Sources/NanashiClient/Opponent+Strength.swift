import NanashiAI
import NanashiProtocol

extension Opponent {
    /// What the player's strength is shown as: the rating (`1612`), or for the built-in engine's
    /// player its level's (`about 780`), since the server rates that player at an unrated 1500.
    var strength: String {
        guard let elo = engineLevel.flatMap({ Level($0)?.elo }) else { return "\(rating)" }
        return "about \(elo)"
    }

    /// The player as the board's words and the lists name them: `bob 1612`, `AI level 3, about 780`.
    var label: String {
        engineLevel == nil ? "\(name) \(strength)" : "\(name), \(strength)"
    }
}
