import NanashiAI
import NanashiCore
import Testing

@testable import NanashiMatch

@Suite struct UAIPlayerTests {
    /// A shell engine (without an `id name`: its command is its name) that speaks the handshake
    /// and answers every `go` with `reply`.
    private static func engine(answeringGoWith reply: String) -> String {
        """
        while read line; do case "$line" in uai) echo uaiok;; isready) echo readyok;; \
        go*) echo '\(reply)';; quit) exit 0;; esac; done
        """
    }

    @Test(.timeLimit(.minutes(1)))
    func anEngineThatRefusesToSearchEndsTheMatchInsteadOfHangingIt() throws {
        let command = Self.engine(answeringGoWith: "info string error nope")
        let player = try UAIPlayer(command: command)
        defer { player.close() }
        #expect(throws: MatchError("\(command) refused 'go nodes 10': info string error nope")) {
            _ = try player.move(start: .start, moves: [], position: .start, limits: .nodes(10))
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anEngineThatAnswersPlaysItsMove() throws {
        let player = try UAIPlayer(command: Self.engine(answeringGoWith: "bestmove f2"))
        defer { player.close() }
        let move = try player.move(start: .start, moves: [], position: .start, limits: .nodes(10))
        #expect(move == .clone(to: Square("f2")!))
    }

    /// Writing to an engine that has exited fails quietly (no SIGPIPE ends the test process); the
    /// match hears of it as an error.
    @Test(.timeLimit(.minutes(1)))
    func anEngineThatExitsAtOnceIsAnErrorNotASignal() {
        #expect(throws: MatchError.self) { _ = try UAIPlayer(command: "exit 0") }
    }
}
