import NanashiProtocol

extension OnlineSession {
    /// After the end of a game: on a terminal, asks `rematch? (y/n)` and waits for the
    /// answer; piped, or with the input over, the session is finished.
    mutating func askAboutRematch(after end: GameEnd) -> Ending? {
        guard settings.isInteractive, !inputEnded, connected else { return .finished }
        phase = .afterGame(game: end.game, asked: false)
        say("rematch? (y/n)")
        return nil
    }

    /// The answer to `rematch? (y/n)`: `y` asks the server (a `start` follows once the opponent
    /// asks too), anything else finishes. Once asked, `n` or `quit` leaves without waiting.
    mutating func answerRematch(_ line: String, game: Int64, asked: Bool) -> Ending? {
        let answer = line.trimmingSpaces.lowercased()
        if asked {
            guard ["n", "no", "q", "quit"].contains(answer) else {
                say("waiting for your opponent to accept the rematch (n to leave)")
                return nil
            }
            return .finished
        }
        switch answer {
        case "y", "yes":
            actions.append(send(.rematch(game: game), id: "rematch"))
            phase = .afterGame(game: game, asked: true)
            say("rematch asked for; waiting for your opponent (at most a minute; n to leave)")
            return nil
        case "n", "no", "q", "quit":
            return .finished
        default:
            say("rematch? please answer y or n")
            return nil
        }
    }

    /// The server's word on a rematch: the opponent's offer is shown as it arrives; a lapsed
    /// offer finishes the session.
    mutating func rematch(_ message: ServerMessage) -> Ending? {
        guard case .afterGame(let game, let asked) = phase else { return nil }
        switch message {
        case .rematchOffer(game) where !asked:
            say("your opponent offers a rematch, colours swapped: rematch? (y/n)")
        case .rematchDeclined(game):
            say("no rematch: your opponent did not take it up")
            return .finished
        default:
            break
        }
        return nil
    }
}
