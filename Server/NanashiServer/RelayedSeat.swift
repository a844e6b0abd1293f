import NanashiCore
import NanashiProtocol

/// A player here in a game another node hosts: their moves go to the host.
struct RelayedSeat: Sendable {
    var game: Int64
    var side: Side
    var host: Int64
    let link: NodeLink
    /// The id of the move or resignation last forwarded to the host, until a line of the host
    /// comes back: if the host dies meanwhile, it is lost with it.
    var unanswered: Unanswered?

    struct Unanswered: Sendable {
        var requestID: RequestID?
    }

    /// Forwards a move, checked first for what needs no game (its notation).
    func play(_ text: String, player: Int64, requestID: RequestID?) throws(ProtocolError) {
        do {
            _ = try Move(notation: text)
        } catch {
            throw ProtocolError(.illegalMove, "'\(text.prefix(20))' is not a move: \(error)")
        }
        link.send(
            .move(game: game, side: side, player: player, move: text, id: requestID, node: link.node),
            to: host)
    }

    func resign(player: Int64, requestID: RequestID?) {
        link.send(.resign(game: game, side: side, player: player, id: requestID, node: link.node), to: host)
    }
}
