import NanashiCore
import NanashiProtocol
import NanashiTerminal
import Testing

@testable import NanashiClient

// The online session full screen: the board, the clocks and the prompt are not written as
// actions; the runner draws `screen(at:)` after every event.

private let epoch = ContinuousClock.now

@Suite struct OnlineFullScreenTests {
    private func playing() -> OnlineSession {
        var settings = OnlineSession.Settings(
            servers: ServerList(ServerAddress(host: "127.0.0.1", port: 7878)),
            control: TimeControl(initial: 600, increment: 0),
            register: false, savedSession: .init(name: "ann", token: "tok1"), isInteractive: true,
            color: false)
        settings.fullScreen = true
        var online = OnlineSession(settings)
        _ = online.start()
        _ = online.handle(.connected, at: epoch)
        let welcome = Welcome(name: "ann", token: "tok1", rating: 1500, rd: 350, games: 0)
        _ = online.handle(.server(.reply(Reply(.welcome(welcome), id: .string("auth")))), at: epoch)
        _ = online.handle(.server(.reply(Reply(.pong, id: .string("sync")))), at: epoch)
        _ = online.handle(.server(.reply(Reply(.seeking, id: .string("seek")))), at: epoch)
        return online
    }

    @Test func theGameIsShownFromTheSessionWithTicksOfBothClocks() {
        var online = playing()
        #expect(online.screen(at: epoch).table == nil)
        let start = GameStart(
            game: 7, color: .x, opponent: Opponent(name: "bob", rating: 1480), fen: Position.start.fen,
            control: TimeControl(initial: 600, increment: 0))
        let started = online.handle(.server(.reply(Reply(.start(start)))), at: epoch + .seconds(12))
        // Only what is said: no board, clock line or prompt written.
        #expect(
            started.filter { if case .say = $0 { true } else if case .write = $0 { true } else { false } }
                == [
                    .say(
                        "found an opponent after 0:12: you play x against bob (1480) at 10+0; type ? for help"
                    )
                ])
        let (table, prompt) = online.screen(at: epoch + .seconds(12))
        #expect(
            table
                == TableView(
                    game: Game(), labels: [.x: "you", .o: "bob 1480"], clocks: "*x 10:00.0   o 10:00.0",
                    title: "nanashi online: game 7, 10+0", keyboard: [.x]))
        #expect(prompt == "x> ")
        // Selecting draws nothing as an action; the screen shows the selection and its prompt.
        #expect(online.handle(.line("a7"), at: epoch + .seconds(13)) == [])
        #expect(online.screen(at: epoch + .seconds(13)).table?.selected == Square("a7"))
        #expect(online.screen(at: epoch + .seconds(13)).prompt == "x [a7]> ")
        // A tick writes nothing; x's clock runs on the screen.
        #expect(online.handle(.tick, at: epoch + .milliseconds(14_500)) == [])
        #expect(online.screen(at: epoch + .milliseconds(14_500)).table?.clocks == "*x 9:57.5   o 10:00.0")
        // Playing sends the move; the prompt waits for the server's answer.
        #expect(
            online.handle(.line("b6"), at: epoch + .seconds(15)) == [
                .send(Request(.move(game: 7, move: "b6"), id: .string("move")))
            ])
        #expect(online.screen(at: epoch + .seconds(15)).prompt == "")
    }
}
