import Foundation
import NanashiCore
import PostgresNIO

/// The failed-login buckets in table `login_guess`, one row per (address, name) with failures
/// that still count; each change is one statement, so servers taking at once never both take
/// the last token.
extension PostgresStorage: SharedLoginGuesses {
    package func takeGuess(address: String, name: String, capacity: Int, refill: Duration, now: Date)
        async throws
        -> Bool
    {
        let (key, seconds, full) = (name.lowercased(), now.timeIntervalSince1970, Double(capacity))
        let perSecond = 1 / max(0.001, refill.inSeconds)
        // Rows whose bucket has refilled to full mean nothing: swept as attempts come.
        try await client.query(
            "DELETE FROM login_guess WHERE updated_at < \(seconds - full / perSecond)", logger: logger)
        return try await !rows(
            """
            INSERT INTO login_guess AS guess (address, name_key, tokens, updated_at)
            VALUES (\(address), \(key), \(full - 1), \(seconds))
            ON CONFLICT (address, name_key) DO UPDATE
            SET tokens = LEAST(\(full), guess.tokens + GREATEST(0, \(seconds) - guess.updated_at) * \(perSecond)) - 1,
                updated_at = GREATEST(guess.updated_at, \(seconds))
            WHERE LEAST(\(full), guess.tokens + GREATEST(0, \(seconds) - guess.updated_at) * \(perSecond)) >= 1
            RETURNING tokens
            """
        ).isEmpty
    }

    package func giveBackGuess(address: String, name: String, capacity: Int) async throws {
        try await client.query(
            """
            UPDATE login_guess SET tokens = LEAST(\(Double(capacity)), tokens + 1)
            WHERE address = \(address) AND name_key = \(name.lowercased())
            """, logger: logger)
    }

    package func clearGuesses(address: String, name: String) async throws {
        try await client.query(
            "DELETE FROM login_guess WHERE address = \(address) AND name_key = \(name.lowercased())",
            logger: logger)
    }
}
