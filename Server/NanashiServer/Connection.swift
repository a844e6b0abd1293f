import Foundation
import Logging
import NanashiProtocol

/// One client connection: reads its requests in order, keeps who is logged in on it, and
/// answers. Errors become `error` replies; nothing a client sends can stop the server.
final class Connection: ConnectionHandler {
    private let outbox: Outbox
    private let peer: String
    private let lobby: Lobby
    private let accounts: Accounts
    private let storage: Storage
    private let settings: ServerSettings
    private var logger: Logger
    private var session: Accounts.Session?
    private let opened = ContinuousClock.now
    private var requests = 0

    init(
        outbox: Outbox, peer: String, lobby: Lobby, accounts: Accounts, storage: Storage,
        settings: ServerSettings,
        logger: Logger
    ) {
        self.outbox = outbox
        self.peer = peer
        self.lobby = lobby
        self.accounts = accounts
        self.storage = storage
        self.settings = settings
        self.logger = logger
        self.logger[metadataKey: "connection"] = "\(outbox.id)"
    }

    func received(_ event: LineEvent) async {
        requests += 1
        guard case .line(let line) = event else {
            outbox.send(
                .error(
                    ProtocolError(.lineTooLong, "a line may have at most \(settings.maximumLineLength) bytes")
                ))
            return
        }
        let id = Wire.requestID(inLine: line)
        do {
            let request = try Wire.request(fromLine: line)
            try await handle(request.message, id: request.id)
        } catch let error as ProtocolError {
            outbox.send(.error(error), id: id)
        } catch {
            logger.error("request failed: \(error)")
            outbox.send(.error(ProtocolError(.internalError, "the server failed; nothing changed")), id: id)
        }
    }

    func closed() async {
        if let player = session?.player.id { await lobby.detach(player, outbox: outbox) }
        let seconds = Double((ContinuousClock.now - opened).components.seconds)
        logger.info(
            "connection closed",
            metadata: [
                "peer": "\(peer)", "player": "\(session?.player.name ?? "-")", "requests": "\(requests)",
                "seconds": "\(Int(seconds))",
            ])
    }

    private func handle(_ message: ClientMessage, id: RequestID?) async throws {
        switch message {
        case .register(let credentials):
            try await logIn(accounts.register(name: credentials.name, password: credentials.password), id: id)
        case .login(let credentials):
            try await logIn(accounts.login(name: credentials.name, password: credentials.password), id: id)
        case .auth(let token):
            try await logIn(accounts.resume(token: token), id: id)
        case .ping:
            outbox.send(.pong, id: id)
        case .leaderboard(let limit, let offset):
            guard (1...ClientMessage.maximumLeaderboardLimit).contains(limit), offset >= 0 else {
                throw ProtocolError(
                    .badRequest, "limit is 1 to \(ClientMessage.maximumLeaderboardLimit), offset 0 or more")
            }
            outbox.send(.leaderboard(try storage.leaderboard(limit: limit, offset: offset)), id: id)
        case .profile(let name):
            guard let profile = try storage.profile(name: name) else {
                throw ProtocolError(.noSuchPlayer, "no player is called '\(name.prefix(40))'")
            }
            outbox.send(.profile(profile), id: id)
        case .logout, .seek, .cancel, .move, .resign:
            guard let session, let player = session.player.id else {
                throw ProtocolError(.notAuthenticated, "log in first")
            }
            try await handle(message, player: player, session: session, id: id)
        }
    }

    /// Messages that need a logged-in player.
    private func handle(_ message: ClientMessage, player: Int64, session: Accounts.Session, id: RequestID?)
        async throws
    {
        switch message {
        case .logout:
            try accounts.end(session)
            await lobby.detach(player, outbox: outbox)
            self.session = nil
            outbox.send(.bye, id: id)
        case .seek(let control):
            guard settings.initialClockRange.contains(control.initial),
                (0...settings.maximumIncrement).contains(control.increment)
            else {
                throw ProtocolError(
                    .badRequest,
                    "initial is \(settings.initialClockRange.lowerBound) to \(settings.initialClockRange.upperBound) "
                        + "seconds, increment 0 to \(settings.maximumIncrement)")
            }
            // Seek with the rating as stored now, not as it was at login.
            let current = try storage.player(id: player) ?? session.player
            try await lobby.seek(current, control: control)
            outbox.send(.seeking, id: id)
            await lobby.pair()
        case .cancel:
            await lobby.cancel(player)
            outbox.send(.cancelled, id: id)
        case .move(let gameID, let move):
            let (game, side) = try await lobby.game(gameID, of: player)
            try await game.play(move, by: side, requestID: id)
        case .resign(let gameID):
            let (game, side) = try await lobby.game(gameID, of: player)
            try await game.resign(side, requestID: id)
        default:
            break
        }
    }

    /// Replies `welcome`, then moves the player's messages (and their game, if any) here.
    private func logIn(_ new: Accounts.Session, id: RequestID?) async {
        if let previous = session?.player.id, previous != new.player.id {
            await lobby.detach(previous, outbox: outbox)
        }
        session = new
        let player = new.player
        outbox.send(
            .welcome(
                Welcome(
                    name: player.name, token: new.token, rating: rounded(player.rating),
                    rd: rounded(player.rd),
                    games: player.games)),
            id: id)
        logger.info("logged in", metadata: ["player": "\(player.name)", "peer": "\(peer)"])
        await lobby.attach(player, outbox: outbox)
    }
}
