import Logging
import NanashiCore
import PostgresNIO

/// A move for `PostgresStorage` to store, by the node that hosts its game.
package struct MoveRecord: Sendable, Equatable {
    package var gameID: Int64
    package var ply: Int64
    package var notation: String
    package var clocks: Clocks
    /// Seconds since 1970.
    package var playedAt: Double
    /// The node storing it, which must host the game (`nil`: a server alone).
    package var host: Int64?
}

/// The statement that stores a batch of moves, prepared once a connection: each move only if
/// its game is hosted by its node, and again at a ply already stored only if it is the same move
/// (its clocks replaced). Answers the moves stored.
///
/// Planned once (the pool's connections force generic plans of prepared statements): each
/// move's game is looked up by its key (`LATERAL ... LIMIT 1`), never by a join that a generic
/// plan, not knowing how many moves come, would make with a scan of every game.
package struct StoreMoves: PostgresPreparedStatement {
    /// Named once (the default name is worked out again at each run).
    package static let name = "nanashi_store_moves"
    package static let sql = """
        INSERT INTO move (game_id, ply, notation, x_clock, o_clock, played_at)
        SELECT t.g, t.p, t.n, t.x, t.o, t.a
        FROM unnest($1::int8[], $2::int8[], $3::text[], $4::int8[], $5::int8[], $6::float8[], $7::int8[])
            AS t(g, p, n, x, o, a, h)
        CROSS JOIN LATERAL (
            SELECT FROM game WHERE id = t.g AND host IS NOT DISTINCT FROM NULLIF(t.h, 0) LIMIT 1
        ) AS hosted
        ON CONFLICT (game_id, ply) DO UPDATE
            SET x_clock = EXCLUDED.x_clock, o_clock = EXCLUDED.o_clock, played_at = EXCLUDED.played_at
            WHERE move.notation = EXCLUDED.notation
        RETURNING game_id, ply
        """
    package typealias Row = Key

    /// A stored move's game and ply.
    package struct Key: Hashable {
        package var game: Int64
        package var ply: Int64
    }

    package var moves: [MoveRecord]

    package func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(moves.map(\.gameID))
        bindings.append(moves.map(\.ply))
        bindings.append(moves.map(\.notation))
        bindings.append(moves.map(\.clocks.x))
        bindings.append(moves.map(\.clocks.o))
        bindings.append(moves.map(\.playedAt))
        bindings.append(moves.map { $0.host ?? 0 })
        return bindings
    }

    package func decodeRow(_ row: PostgresRow) throws -> Key {
        let (game, ply) = try row.decode((Int64, Int64).self)
        return Key(game: game, ply: ply)
    }

    /// Stores `moves` and answers, for each, whether it was stored. Two moves at one ply of one
    /// game (which one statement cannot both write) go one after the other.
    package static func store(_ moves: [MoveRecord], client: PostgresClient, logger: Logger) async throws
        -> [Bool]
    {
        let keys = moves.map { Key(game: $0.gameID, ply: $0.ply) }
        guard Set(keys).count == keys.count else {
            var answers: [Bool] = []
            for move in moves { answers += try await store([move], client: client, logger: logger) }
            return answers
        }
        var stored: Set<Key> = []
        for try await key in try await client.execute(StoreMoves(moves: moves), logger: logger) {
            stored.insert(key)
        }
        return keys.map(stored.contains)
    }

    package init(moves: [MoveRecord]) {
        self.moves = moves
    }
}
