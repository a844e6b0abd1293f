import NanashiRuntime
import Testing

@testable import NanashiServer

@Suite struct DeadlineTests {
    /// A call that never answers fails once its time is up (here: at once, the injected sleep
    /// returning without waiting).
    @Test func aCallThatNeverAnswersFailsWhenItsTimeIsUp() async {
        let never = AsyncStream<Int> { _ in }
        await #expect(throws: StorageTimedOut.self) {
            let now: @Sendable (Duration) async throws -> Void = { _ in }
            return try await withDeadline(.seconds(20), sleep: now) {
                for await value in never { return value }
                return 0
            }
        }
    }

    /// A call that answers in time gives its answer, or its own error; the time limit never
    /// comes into it (here it would never be up).
    @Test func aCallThatAnswersGivesItsAnswerOrItsError() async throws {
        let forever: @Sendable (Duration) async throws -> Void = { _ in
            try await Task.sleep(for: .seconds(3600))
        }
        #expect(try await withDeadline(.seconds(20), sleep: forever) { 7 } == 7)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withDeadline(.seconds(20), sleep: forever) { () async throws -> Int in throw Refused() }
        }
    }
}
