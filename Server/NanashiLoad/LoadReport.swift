/// The result of a load test: what was played, how fast, and what went wrong.
public struct LoadReport: Hashable, Sendable, Codable {
    public var clients: Int
    /// The most bots connected at one time.
    public var peakConnected: Int
    /// Games the run set out to complete.
    public var gamesTarget: Int
    /// Distinct games that reached `end`.
    public var gamesCompleted: Int
    /// Games started but not ended when the run stopped.
    public var gamesUnfinished: Int
    /// The most games in progress at one time.
    public var peakGamesPlaying: Int
    /// Moves accepted by the server (each counted once, by its mover).
    public var moves: Int
    public var seconds: Double
    /// Move round trips: from sending `move` to receiving its `moved`.
    public var latency: LatencySummary
    /// The round trips of the moves sent once every game wanted had started; `nil` if some never did.
    public var allGoing: AllGamesGoing?
    public var resigns: Int
    /// Connections a bot dropped on purpose and reopened with `auth`.
    public var reconnects: Int
    /// Every `error` reply and every failure of the client's own, by code.
    public var errors: [String: Int]
    /// The games against the server's engine kept running meanwhile, if any.
    public var engine: EngineLoad?

    public var errorCount: Int { errors.values.reduce(0, +) }

    public var movesPerSecond: Double { seconds > 0 ? Double(moves) / seconds : 0 }

    /// The report as lines for people.
    public var text: String {
        """
        clients \(clients), \(peakConnected) connected at most
        games completed \(gamesCompleted) of \(gamesTarget)\
        \(gamesUnfinished > 0 ? " (\(gamesUnfinished) unfinished)" : ""), \(peakGamesPlaying) at once at most
        moves \(moves) in \(Self.oneDecimal(seconds)) s: \(Int(movesPerSecond.rounded())) moves/s
        move round trip: \(latency.text)
        \(allGoing.map(\.text) ?? "move round trip once all games were going: never (not every game started)")
        resigned \(resigns), dropped and reconnected \(reconnects)
        \(Self.errorsLine(errors))
        """ + (engine.map { "\n" + $0.text(seconds: seconds) } ?? "")
    }

    /// `errors 0`, or `errors 3: illegal_move 2, connection_closed 1` (most frequent first).
    static func errorsLine(_ errors: [String: Int]) -> String {
        let total = errors.values.reduce(0, +)
        guard total > 0 else { return "errors 0" }
        let codes = errors.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return "errors \(total): " + codes.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// The moves of a load test sent once all its games were going: from when its last game started.
public struct AllGamesGoing: Hashable, Sendable, Codable {
    /// When the last game started, in seconds after the run began.
    public var from: Double
    public var latency: LatencySummary

    /// `move round trip once all games were going (sent from 13.2 s on, 120000 moves): p50 ...`.
    var text: String {
        "move round trip once all games were going (sent from \(LoadReport.oneDecimal(from)) s on, "
            + "\(latency.count) moves): \(latency.text)"
    }
}

/// The games against the server's engine during a load test: how many, and the engine's moves
/// (from when the people's games began).
public struct EngineLoad: Hashable, Sendable, Codable {
    /// Games against the engine still under way when the run stopped.
    public var gamesPlaying: Int
    /// Games against the engine that ended during the run (each bot then started another).
    public var gamesEnded: Int
    public var moves: Int

    /// `engine games 12 playing (3 ended), engine moves 240: 0.8/s`.
    func text(seconds: Double) -> String {
        let perSecond = seconds > 0 ? Double(moves) / seconds : 0
        return "engine games \(gamesPlaying) playing (\(gamesEnded) ended), engine moves \(moves): "
            + "\(LoadReport.oneDecimal(perSecond))/s"
    }
}

/// The result of a query-latency run: `leaderboard` and `profile` round trips.
public struct QueryReport: Hashable, Sendable, Codable {
    public var connections: Int
    /// Players on the leaderboard when the run began.
    public var rankedPlayers: Int
    public var leaderboard: LatencySummary
    public var profile: LatencySummary
    public var errors: [String: Int]

    /// The report as lines for people.
    public var text: String {
        """
        connections \(connections), players ranked \(rankedPlayers)
        leaderboard (\(leaderboard.count) queries): \(leaderboard.text)
        profile (\(profile.count) queries): \(profile.text)
        \(LoadReport.errorsLine(errors))
        """
    }
}

/// What a running load test has done so far, for its progress line.
public struct LoadProgress: Hashable, Sendable {
    public var seconds: Double
    public var connected: Int
    public var gamesCompleted: Int
    public var gamesPlaying: Int
    public var moves: Int
    /// Moves per second since the previous progress line.
    public var recentMovesPerSecond: Double
    /// The 99th percentile round trip since the previous progress line, in milliseconds.
    public var recentP99: Double
    public var errors: Int

    /// `[12s] connected 1000, games 120 done 380 playing, moves 45678 (3800/s, p99 12.30 ms), errors 0`.
    public var line: String {
        "[\(Int(seconds))s] connected \(connected), games \(gamesCompleted) done \(gamesPlaying) playing, "
            + "moves \(moves) (\(Int(recentMovesPerSecond.rounded()))/s, "
            + "p99 \(LatencySummary.milliseconds(recentP99))), errors \(errors)"
    }
}
