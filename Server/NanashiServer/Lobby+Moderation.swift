import NanashiProtocol

/// Moderators' marks reaching the lobby: a player marked for engine help is out of rated
/// pairing, their seek waiting when the mark is made included.
extension Lobby {
    /// What a player marked for engine help gets for a rated game.
    static let markedForEngineHelp = ProtocolError(
        .restricted,
        "your account is marked as playing with engine help: no rated games (casual ones and the engine are open)"
    )

    /// A moderator marked `player` for engine help (`ModerationWatch`): their seek waiting on
    /// this node (a seek for a person is rated) is withdrawn, and they are told
    /// `markedForEngineHelp`, unasked.
    func marked(_ player: Int64) async {
        // Sought here: in the pool, or out of it for a pass that is pairing them.
        var withdrawn = seekers.removeValue(forKey: player) != nil
        withdrawn = matchmaker.remove(player) || withdrawn
        if let cluster, connections[player] != nil {
            do {
                withdrawn = try await withdrawSharedSeek(of: player, cluster: cluster) || withdrawn
            } catch {
                logger.error("removing a marked player's seek failed: \(error)")
            }
        }
        guard withdrawn else { return }
        connections[player]?.outbox.send(.error(Self.markedForEngineHelp))
    }

    /// Of the players of a pair about to start, those a moderator marked for engine help since
    /// they sought (read again: the mark may be newer than the watch's last look).
    func markedSinceTheySought(_ players: [Int64]) async -> Set<Int64> {
        var marked: Set<Int64> = []
        for player in players {
            do {
                if try await storage.player(id: player)?.engineHelpAt != nil { marked.insert(player) }
            } catch {
                logger.error("reading a seeker's mark failed: \(error)")
            }
        }
        return marked
    }
}
