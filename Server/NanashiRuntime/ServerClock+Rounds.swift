extension ServerClock {
    /// Runs `round` after each `interval` on this clock until the task is cancelled. A round that
    /// throws is handed to `failed`, and the next comes as usual.
    package func rounds(
        every interval: Duration, _ round: () async throws -> Void, failed: (any Error) -> Void
    ) async {
        while !Task.isCancelled {
            do {
                try await sleep(for: interval)
            } catch {
                return
            }
            do {
                try await round()
            } catch {
                failed(error)
            }
        }
    }
}
