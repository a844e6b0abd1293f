import NanashiServerTestSupport
import Testing

@Suite struct LevelListTests {
    /// `levels` needs no login, and lists every level of the engine with its rating, byte for
    /// byte; logged in, the same.
    @Test func theLevelsAreListedWithTheirRatings() async throws {
        let server = try await TestServer()
        let client = try server.client()
        let levels =
            #"{"levels":[{"elo":500,"level":1},{"elo":670,"level":2},{"elo":780,"level":3},{"elo":930,"level":4},"#
            + #"{"elo":1040,"level":5},{"elo":1140,"level":6},{"elo":1350,"level":7},{"elo":1500,"level":8},"#
            + #"{"elo":1650,"level":9},{"elo":1920,"level":10},{"elo":2050,"level":11},{"elo":2200,"level":12},"#
            + #"{"elo":2400,"level":13},{"elo":2600,"level":14},{"elo":2850,"level":15},{"elo":3050,"level":16},"#
            + #"{"elo":3250,"level":17},{"elo":3450,"level":18},{"elo":3650,"level":19},{"elo":3800,"level":20},"#
            + #"{"elo":4050,"level":21},{"elo":4250,"level":22},{"elo":4500,"level":23},{"elo":4700,"level":24}],"#
            + #""type":"levels"}"#
        #expect(try await client.exchange(#"{"type":"levels","id":1}"#) == #"{"id":1,"# + levels.dropFirst())
        _ = try await register(client, "ann")
        #expect(try await client.exchange(#"{"type":"levels"}"#) == levels)
        await server.stop()
    }
}
