import NanashiCore
import NanashiProtocol
import NanashiTerminal

extension OnlineSession {
    /// Whether a line typed now can be acted on. On a terminal, always; piped lines wait for
    /// this player's turn, so that a script of moves plays out against whatever the opponent
    /// takes time to do.
    private var readyForInput: Bool {
        if settings.isInteractive { return true }
        guard case .playing = phase, let table, connected, !syncing, !awaitingAnswer else { return false }
        return table.isOurTurn
    }

    /// Acts on the lines waiting, as many as can be acted on now.
    mutating func takeInput(at now: ContinuousClock.Instant) -> Ending? {
        while readyForInput {
            passIfForced(at: now)
            guard readyForInput else { return nil }
            guard !pending.isEmpty else {
                guard inputEnded else { return nil }
                if !settings.isInteractive { showPrompt() }
                actions.append(.write("\n"))
                return leave(reason: "input ended")
            }
            let line = pending.removeFirst()
            if !settings.isInteractive {
                showPrompt()
                actions.append(.write(line + "\n"))
            }
            promptShown = false
            if let ending = handle(line: line, at: now) { return ending }
        }
        return nil
    }

    /// A player with no move must pass; the client does it for them.
    private mutating func passIfForced(at now: ContinuousClock.Instant) {
        guard case .playing = phase, let table, table.isOurTurn, !awaitingAnswer, connected, !syncing,
            case .forcedPass = table.loop.turn
        else { return }
        perform(table.loop.forcedPass(), at: now)
    }

    private mutating func handle(line: String, at now: ContinuousClock.Instant) -> Ending? {
        if case .afterGame(let game, let asked) = phase {
            return answerRematch(line, game: game, asked: asked)
        }
        if confirmingQuit {
            confirmingQuit = false
            switch line.trimmingSpaces.lowercased() {
            case "y", "yes": return leave(reason: nil)
            default:
                say("staying in the game")
                return nil
            }
        }
        let command: Command
        do {
            command = try Command(parsing: line)
        } catch {
            say(error.description)
            return nil
        }
        switch command {
        case .nothing:
            break
        case .help:
            say(Self.helpText)
        case .quit:
            guard case .playing = phase, table != nil, settings.isInteractive else {
                return leave(reason: nil)
            }
            confirmingQuit = true
            say("leave the game? Your clock keeps running, and you lose if you are not back in time.")
        case .undo: say("undo is not available in an online game")
        case .hint: say("hint is not available in an online game")
        case .save, .load: say("save and load are not available in an online game")
        case .flip:
            flipped.toggle()
            table?.loop.flipped = flipped
            draw(at: now)
        case .board:
            draw(at: now)
        case .acceptChallenge:
            answerChallenge(accepting: true)
        case .declineDraw where table == nil || phase != .playing:
            answerChallenge(accepting: false)
        case .moves, .resign, .square, .move, .draw, .declineDraw:
            guard case .playing = phase, let table else {
                say("no game yet: waiting for an opponent (quit to stop)")
                return nil
            }
            play(command, in: table, at: now)
        }
        return nil
    }

    /// The commands about the game: only with a game on, and moves only on this player's turn;
    /// the game loop selects, checks and lists the moves.
    private mutating func play(_ command: Command, in table: OnlineTable, at now: ContinuousClock.Instant) {
        switch command {
        case .moves:
            break
        case .resign:
            guard connected else { return say("not connected: wait for the connection to come back") }
            actions.append(send(.resign(game: table.id), id: "resign"))
            awaitingAnswer = true
            return
        case .draw, .declineDraw:
            guard connected else { return say("not connected: wait for the connection to come back") }
            let declines = command == .declineDraw
            actions.append(
                send(declines ? .decline(.draw, game: table.id) : .offer(.draw, game: table.id), id: "draw"))
            return
        default:
            guard table.isOurTurn else { return say("wait: it is \(table.position.sideToMove)'s move") }
            guard !awaitingAnswer else { return say("wait: the server has not answered your last move") }
            guard connected, !syncing else {
                return say("not connected: wait for the connection to come back")
            }
        }
        var table = table
        let effects = table.loop.handle(command)
        self.table = table
        perform(effects, at: now)
    }

    /// Carries out the game loop's effects: a move chosen goes to the server, which answers
    /// with `moved` (or an error).
    private mutating func perform(_ effects: [GameLoop.Effect], at now: ContinuousClock.Instant) {
        for effect in effects {
            switch effect {
            case .say(let line):
                say(line)
            case .draw:
                draw(at: now)
            case .submit(let move):
                guard let table else { return }
                actions.append(send(.move(game: table.id, move: move.description), id: "move"))
                awaitingAnswer = true
            case .command:
                break  // The online commands are carried out before the loop is asked.
            }
        }
    }

    mutating func leave(reason: String?) -> Ending {
        actions.append(.clearStatus)
        let because = reason.map { $0 + ": " } ?? ""
        if case .playing = phase, table != nil {
            say(
                because
                    + "leaving; the game goes on, and you lose it if you are not back within the server's grace period"
            )
        } else {
            if connected { actions.append(send(.cancel)) }
            say(because + "leaving")
        }
        return .left
    }

    static let helpText = """
        Moves:  type a square with your piece (b2) to see where it can go, then the destination (c3).
                A square alone (c3) clones there; two squares (a1c3) jump. A forced pass is played for you.
        moves          list the legal moves
        flip           turn the board around
        board          draw the board again
        resign         give up this game
        draw           offer a draw, or accept your opponent's offer
        decline        decline your opponent's draw offer (or, between games, a challenge)
        accept         accept the challenge you received last
        quit           leave (the game goes on: come back with nanashi online before the grace period ends)
        Not online: undo, hint, save, load.
        """
}
