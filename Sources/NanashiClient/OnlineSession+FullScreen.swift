import NanashiCore
import NanashiTerminal

extension OnlineSession {
    /// What the full screen shows at `now`: the game with both clocks (running, until the game
    /// ends), and the prompt.
    /// The board and the prompt are not written as actions then: the runner shows this after
    /// every event, ticks included, and the screen redraws only the lines that changed.
    public func screen(at now: ContinuousClock.Instant) -> (table: TableView?, prompt: String) {
        guard let table else { return (nil, "") }
        var view = table.loop.view
        view.title = "nanashi online: game \(table.id), \(table.control)"
        guard case .playing = phase else { return (view, "") }
        let toMove = table.position.isGameOver ? nil : table.position.sideToMove
        view.clocks = ClockText.line(table.clocks(at: now), toMove: toMove)
        return (view, prompt)
    }
}
