import Foundation
import NanashiTestSupport
import Testing

@Suite(.blocking) struct PlayTests {
    /// Plays a whole game against the AI: at each prompt asks for the legal moves and plays the
    /// first one, until the game is over; then declines another game. Returns the transcript.
    private func playToTheEnd(_ arguments: [String]) throws -> (transcript: String, status: Int32) {
        let session = try Session(["play"] + arguments)
        var turns = 0
        while let chunk = session.readToPrompt() {
            if chunk.hasSuffix("play again? (y/n)> ") {
                session.send("n")
                break
            }
            turns += 1
            guard turns < 400 else { break }
            session.send("moves")
            guard let listing = session.readToPrompt() else { break }
            let line = listing.split(separator: "\n").first { $0.hasPrefix("legal moves: ") }
            guard let first = line?.dropFirst("legal moves: ".count).split(separator: " ").first else {
                break
            }
            session.send(String(first))
        }
        let status = session.finish()
        return (session.transcript, status)
    }

    @Test func scriptedGameAgainstLevelOneRunsToItsEnd() throws {
        let (transcript, status) = try playToTheEnd(["--level", "1", "--seed", "42"])
        #expect(status == 0)
        #expect(
            transcript.hasPrefix(
                "you play x against the AI at level 1 (about 500); type ? for help\n"))
        #expect(transcript.contains(" x 2 pieces (you)   o 2 pieces (AI level 1, about 500)\n"))
        #expect(transcript.contains("\no plays "))
        let summary = try #require(
            transcript.firstRange(of: /game over: (x wins|o wins|draw) \(.*\)\nfinal count: x \d+, o \d+\n/))
        #expect(transcript[summary.upperBound...] == "play again? (y/n)> n\n")
        // With the same seed, the AI makes the same choices and the game is replayed exactly.
        let (again, _) = try playToTheEnd(["--level", "1", "--seed", "42"])
        #expect(again == transcript)
    }

    @Test func undoTakesBackYourMoveAndTheAIsReply() throws {
        let run = try NanashiProcess.run(
            ["play", "--level", "2", "--seed", "1"], input: "f2\nundo\nundo\nquit\n")
        #expect(run.status == 0)
        let afterUndo = """
            x> undo
            took back 2 moves
            \(startDiagram)
             x 2 pieces (you)   o 2 pieces (AI level 2, about 670)
             move 1, x to play
            x> undo
            nothing to undo
            x> quit

            """
        #expect(run.stdout.hasSuffix(afterUndo))
    }

    @Test func playingOTheAIMovesFirstAndHintSuggestsALegalMove() throws {
        let run = try NanashiProcess.run(
            ["play", "--side", "o", "--level", "1", "--seed", "3"], input: "hint\nquit\n")
        #expect(run.status == 0)
        #expect(
            run.stdout.hasPrefix(
                "you play o against the AI at level 1 (about 500); type ? for help\n"))
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let reply = try #require(lines.first { $0.hasPrefix("x plays ") })
        let hint = try #require(lines.first { $0.hasPrefix("hint: ") })
        // The hint is one of o's legal moves after the AI's first move.
        let show = try NanashiProcess.run(["show", String(reply.dropFirst("x plays ".count))], input: "")
        let legal = try #require(show.stdout.split(separator: "\n").first { $0.hasPrefix("moves ") })
        #expect(legal.split(separator: " ").dropFirst().contains(Substring(hint.dropFirst("hint: ".count))))
        // The board is shown before the AI's move and after it, when o is to play.
        #expect(lines.count { $0.hasSuffix(" pieces (AI level 1, about 500)   o 2 pieces (you)") } == 2)
        #expect(lines.contains(" move 1, o to play"))
    }

    @Test func theAIFinishesAGameFromAFEN() throws {
        // o, the AI, moves first and takes x's only piece, whatever it plays next to b2.
        let run = try NanashiProcess.run(
            ["play", "--side", "x", "--level", "4", "--fen", "7/7/7/7/7/1x5/o6 o 0 1"], input: "n\n")
        #expect(run.status == 0)
        #expect(run.stdout.contains("\no plays "))
        #expect(run.stdout.contains(" x 0 pieces (you)   o "))
        #expect(run.stdout.contains("game over: o wins (x has no pieces left)\nfinal count: x 0, o "))
        #expect(run.stdout.hasSuffix("play again? (y/n)> n\n"))
    }

    @Test(arguments: [
        (["--level", "0"], "nanashi: bad level 0: use 1 to 24\n"),
        (["--level", "25"], "nanashi: bad level 25: use 1 to 24\n"),
        (
            ["--fen", "x5o x"],
            "nanashi: bad FEN 'x5o x': the board must have 7 ranks separated by '/', not 1\n"
        ),
    ])
    func badOptionsAreOneLineErrors(arguments: [String], message: String) throws {
        let run = try NanashiProcess.run(["play"] + arguments, input: "")
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == message)
    }
}
