import NanashiAI
import NanashiCore
import NanashiMatch
import Testing

private func parsing(
    games: Int = 10, depth: Int? = nil, nodes: UInt64? = nil, movetime: Int? = nil, tc: String? = nil,
    maxPlies: Int = 400, concurrency: Int = 1, sprt: String? = nil, first: String = "level:2"
) throws -> Match {
    try Match.parsing(
        first: first, second: "level:1", games: games, depth: depth, nodes: nodes, movetime: movetime, tc: tc,
        maxPlies: maxPlies, concurrency: concurrency, sprt: sprt, openings: nil, seed: 7)
}

@Test func aMatchIsReadFromTheOptionsAsTyped() throws {
    let match = try parsing(depth: 3, tc: "10+0.1", sprt: "0,10")
    #expect(match.first.description == "level:2" && match.second.description == "level:1")
    #expect(match.games == 10 && match.limits.depth == 3 && match.seed == 7)
    #expect(match.timeControl == TimeControl(seconds: "10+0.1"))
    #expect(match.sprt != nil && match.openings == Openings.book)
}

@Test func badOptionsAreOneLineEach() {
    let cases: [(() throws -> Match, String)] = [
        ({ try parsing(games: 0) }, "bad games 0: use 1 to 100000"),
        ({ try parsing(depth: 65) }, "bad depth 65: use 1 to 64"),
        ({ try parsing(nodes: 0) }, "bad nodes 0: use 1 or more"),
        ({ try parsing(movetime: 0) }, "bad movetime 0: use 1 to 3600000 ms"),
        ({ try parsing(tc: "fast") }, "bad time control 'fast': use SECONDS+INCREMENT, like 10+0.1"),
        ({ try parsing(maxPlies: 0) }, "bad max plies 0: use 1 to 10000"),
        ({ try parsing(concurrency: 65) }, "bad concurrency 65: use 1 to 64"),
        ({ try parsing(sprt: "10,0") }, "bad sprt '10,0': use ELO0,ELO1 with ELO0 < ELO1, like 0,10"),
    ]
    for (make, message) in cases {
        let error = #expect(throws: (any Error).self) { try make() }
        #expect(error.map { "\($0)" } == message)
    }
}
