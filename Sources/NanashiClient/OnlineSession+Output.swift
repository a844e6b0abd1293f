import NanashiCore
import NanashiTerminal

extension OnlineSession {
    /// The board with the last move and the selection, then both clocks.
    mutating func draw(at now: ContinuousClock.Instant) {
        guard let table, !settings.fullScreen else { return }
        actions.append(.write(table.loop.screen))
        let toMove = table.position.isGameOver ? nil : table.position.sideToMove
        actions.append(.say(" " + ClockText.line(table.clocks(at: now), toMove: toMove)))
        clockLineAbove = settings.isInteractive
        promptShown = false
    }

    /// On a terminal, keeps a clock line just above the prompt, so the clocks go on ticking
    /// after a message.
    mutating func showClocks(at now: ContinuousClock.Instant) {
        guard !clockLineAbove, !settings.fullScreen, case .playing = phase, let table,
            !table.position.isGameOver
        else { return }
        actions.append(.say(" " + ClockText.line(table.clocks(at: now), toMove: table.position.sideToMove)))
        clockLineAbove = true
        promptShown = false
    }

    var prompt: String {
        if confirmingQuit { return "leave? (y/n)> " }
        guard case .playing = phase, let table, table.isOurTurn, !awaitingAnswer else { return "" }
        return table.loop.prompt
    }

    /// On a terminal, the prompt is shown whenever the loop waits; piped, only before a line
    /// is used (so the transcript reads like a session).
    mutating func showPrompt() {
        guard !promptShown, !settings.fullScreen, case .playing = phase else { return }
        let text = prompt
        if !text.isEmpty { actions.append(.write(text)) }
        promptShown = true
    }

    /// On a terminal: the time waited for an opponent, or the clocks of the game on. A challenge
    /// received while waiting keeps the status line until it is answered or ends.
    mutating func tick(at now: ContinuousClock.Instant) {
        switch phase {
        case .seeking(let since):
            guard challengeReceived == nil else { return }
            let waited = Int(since.duration(to: now).components.seconds)
            guard waited != lastWaitedShown else { return }
            lastWaitedShown = waited
            let waiting =
                settings.challenge.map { "waiting for \($0.name)'s answer" } ?? "waiting for an opponent"
            actions.append(.status("\(waiting) at \(settings.control): \(ClockText.waited(seconds: waited))"))
        case .playing:
            guard clockLineAbove, !settings.fullScreen, let table, !table.position.isGameOver else { return }
            actions.append(
                .rewriteLineAbove(
                    " " + ClockText.line(table.clocks(at: now), toMove: table.position.sideToMove)))
        case .joining, .loggingIn, .afterGame:
            break
        }
    }
}
