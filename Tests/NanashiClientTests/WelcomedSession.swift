import NanashiCore
import NanashiProtocol

@testable import NanashiClient

/// A session at a terminal (or piped) logged in as ann (1500) on 127.0.0.1:7878 with a kept
/// token, then told `then`, each a reply of the server; the lines said on the way are dropped.
func welcomedSession(
    control: TimeControl = TimeControl(initial: 600, increment: 0), interactive: Bool = true,
    challenge: (name: String, side: Side?, rated: Bool)? = nil, then replies: [Reply] = [],
    at now: ContinuousClock.Instant
) -> OnlineSession {
    var online = OnlineSession(
        OnlineSession.Settings(
            servers: ServerList(ServerAddress(host: "127.0.0.1", port: 7878)), control: control,
            register: false, savedSession: .init(name: "ann", token: "tok1"), isInteractive: interactive,
            color: false, challenge: challenge))
    _ = online.start()
    _ = online.handle(.connected, at: now)
    let welcome = Reply(
        .welcome(Welcome(name: "ann", token: "tok1", rating: 1500, rd: 350, games: 0)), id: .string("auth"))
    for reply in [welcome] + replies { _ = online.handle(.server(.reply(reply)), at: now) }
    return online
}

/// The replies that take a welcomed session into game `start`: synced, seeking, started.
func repliesStarting(_ start: GameStart) -> [Reply] {
    [Reply(.pong, id: .string("sync")), Reply(.seeking, id: .string("seek")), Reply(.start(start))]
}
