import Foundation
import GRDB
import NanashiCore

/// What changes a game's moves or clocks besides a move played: a takeback, a planned stop.
extension SQLiteStorage {
    package func storeStopClocks(gameID: Int64, ply: Int, clocks: Clocks) async throws {
        try await writingOneStatement { db in
            try db.execute(
                sql: """
                    UPDATE game SET stopped_ply = ?, stopped_x_clock = ?, stopped_o_clock = ?
                    WHERE id = ? AND result IS NULL
                    """, arguments: [ply, clocks.x, clocks.o, gameID])
        }
    }

    package func removeMoves(gameID: Int64, after ply: Int) async throws {
        try await writing { db in
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT result IS NULL FROM game WHERE id = ?", arguments: [gameID]) == true
            else { throw StorageError.noSuchGame }
            try db.execute(sql: "DELETE FROM move WHERE game_id = ? AND ply > ?", arguments: [gameID, ply])
        }
    }
}
