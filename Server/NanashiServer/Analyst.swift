import Foundation
import Logging
import NanashiAI
import NanashiCore
import NanashiProtocol
import NanashiRuntime
import NanashiStorage

/// Analyses of finished games: each computed once, at a fixed depth, on the engine pool, then
/// stored and served from storage.
///
/// An analysis searches the game's positions one after another, each a search of its own in the
/// pool's queue, so games against the engine go on meanwhile. Requests for a game being analysed
/// wait for the same analysis.
actor Analyst {
    private let storage: any Storage
    private let engines: EnginePool
    private let settings: ServerSettings
    private let logger: Logger
    /// Requests that need computing, per client address and per account.
    private let requests: KeyedBuckets<String>
    private let accountRequests: KeyedBuckets<Int64>
    /// Analyses being computed for people (at most `concurrentAnalyses`), and those waiting
    /// for one of them to end, first come first served.
    private var computingCount = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var running: [Int64: Task<GameAnalysis, any Error>] = [:]
    /// The analysis computed in the background, if any (at most one).
    private var background: [Int64: Task<GameAnalysis, any Error>] = [:]
    /// The addresses whose analyses are being computed: one at a time each.
    private var addressesComputing: Set<String> = []

    init(storage: any Storage, engines: EnginePool, settings: ServerSettings, logger: Logger) {
        self.storage = storage
        self.engines = engines
        self.settings = settings
        self.logger = logger
        requests = KeyedBuckets(settings.analysesPerHour, per: .seconds(3600), clock: settings.clock)
        accountRequests = KeyedBuckets(settings.analysesPerHour, per: .seconds(3600), clock: settings.clock)
    }

    /// Analyses waiting for their turn.
    var waitingCount: Int { waiting.count }

    /// The analysis of finished game `gameID` as storage keeps it (`GameAnalysis.storedBody()`),
    /// asked from `address` (by `player`, if logged in): from storage if it is there, as it is,
    /// else computed (and stored) once its turn comes.
    ///
    /// - Throws: `no_such_game` for a game unknown or in progress, `rate_limited` when the address
    ///   or the account has asked for too many analyses, `busy` when the address has one being
    ///   computed or waiting, or `waitingAnalyses` wait already, or the engine's queue is full.
    func analysisBody(of gameID: Int64, from address: String, by player: Int64? = nil) async throws
        -> String
    {
        if let stored = try await storage.analysisBody(gameID: gameID) { return stored }
        if let task = running[gameID] ?? background[gameID] { return try await task.value.storedBody() }
        guard let game = try await storage.finishedGame(id: gameID) else {
            throw ProtocolError(.noSuchGame, "no finished game \(gameID)")
        }
        if let task = running[gameID] { return try await task.value.storedBody() }
        guard engines.hasRoom,
            computingCount < settings.concurrentAnalyses || waiting.count < settings.waitingAnalyses
        else {
            throw ProtocolError(.busy, "the engine is busy; ask again in a minute")
        }
        guard !addressesComputing.contains(address) else {
            throw ProtocolError(
                .busy, "an analysis you asked for is being computed; ask again once it is done")
        }
        guard requests.take(address) else {
            throw ProtocolError(
                .rateLimited,
                "too many analyses from your address (at most \(Int(settings.analysesPerHour)) an hour)")
        }
        if let player, !accountRequests.take(player) {
            throw ProtocolError(
                .rateLimited,
                "too many analyses from your account (at most \(Int(settings.analysesPerHour)) an hour)")
        }
        addressesComputing.insert(address)
        defer { addressesComputing.remove(address) }
        await takeTurn()
        defer { endTurn() }
        // Asked meanwhile by someone else, whose turn came first: computed, or being computed.
        if let task = running[gameID] ?? background[gameID] { return try await task.value.storedBody() }
        if let stored = try await storage.analysisBody(gameID: gameID) { return stored }
        if let task = running[gameID] ?? background[gameID] { return try await task.value.storedBody() }
        let (moves, task) = try computing(gameID, game: game, owner: Self.owner)
        running[gameID] = task
        defer { running[gameID] = nil }
        let started = ContinuousClock.now
        let analysis = try await task.value
        logger.info(
            "game \(gameID) analysed: \(moves.count) plies at depth \(analysis.depth) in \(ContinuousClock.now - started)"
        )
        return analysis.storedBody()
    }

    /// Waits until fewer than `concurrentAnalyses` are computed, in the order asked, and takes
    /// a place among them.
    private func takeTurn() async {
        if computingCount < settings.concurrentAnalyses, waiting.isEmpty {
            computingCount += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives the place of an analysis that ended to the first one waiting, if any.
    private func endTurn() {
        if waiting.isEmpty {
            computingCount -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Analyses finished game `gameID` in the background (`BackgroundAnalysis`), if nobody's
    /// analysis is being computed and the engine has room: its searches go only when no other
    /// search waits, and a request for the same game meanwhile waits for it. Returns whether it
    /// analysed the game (`false`: skipped, or analysed already).
    func analyseInBackground(_ gameID: Int64) async throws -> Bool {
        guard computingCount == 0, running.isEmpty, background.isEmpty, engines.hasRoom,
            try await storage.analysisBody(gameID: gameID) == nil,
            let game = try await storage.finishedGame(id: gameID),
            computingCount == 0, running.isEmpty, background.isEmpty
        else { return false }
        let (moves, task) = try computing(gameID, game: game, owner: EnginePool.backgroundOwner)
        background[gameID] = task
        defer { background[gameID] = nil }
        _ = try await task.value
        logger.info("game \(gameID) analysed in the background: \(moves.count) plies")
        return true
    }

    /// Replays a game's `moves` and starts its analysis, with searches of `owner`, stored once done.
    private func computing(_ gameID: Int64, game: FinishedGame, owner: String) throws
        -> (moves: [Move], task: Task<GameAnalysis, any Error>)
    {
        var moves: [Move] = []
        var positions: [Position] = []
        do {
            positions = [try game.startPosition()]
            for text in game.moves {
                let move = try Move(notation: text)
                positions.append(try positions[positions.count - 1].play(move))
                moves.append(move)
            }
        } catch {
            throw ProtocolError(.internalError, "game \(gameID)'s moves cannot be replayed")
        }
        let (engines, storage, clock) = (engines, storage, settings.clock)
        let depth = Self.depth(plies: moves.count, base: settings.analysisDepth)
        let (played, replayed) = (moves, positions)
        let task = Task { @Sendable in
            let analysis = await Self.analyse(
                gameID, positions: replayed, moves: played, depth: depth, on: engines, owner: owner)
            // Stopped meanwhile, the pool answered the last searches with nothing: not an analysis to keep.
            guard !engines.isStopped else { throw ProtocolError(.busy, "the server is stopping") }
            try await storage.storeAnalysis(analysis, now: clock.date)
            return analysis
        }
        return (moves, task)
    }

    /// The plies up to which a game is analysed at the server's depth; each doubling past them
    /// takes one ply off the depth (to 1 at least), so that a long game holds the engine about
    /// as long as a short one rather than many times longer.
    static let pliesAtFullDepth = 200

    /// The depth of an analysis of `plies` plies, from the server's `base`.
    static func depth(plies: Int, base: Int) -> Int {
        var (depth, limit) = (base, pliesAtFullDepth)
        while plies > limit, depth > 1 {
            depth -= 1
            limit *= 2
        }
        return depth
    }

    /// The owner of analyses' searches in the engine pool's turns: all analyses take one turn
    /// between games' searches.
    static let owner = "analysis"

    /// Searches every position of the game to `depth` and reads the evaluations and mistakes off
    /// the results. The positions are searched one at a time, and several at once while the
    /// pool has threads to spare: each search stands alone (a cleared table, a fixed depth), so
    /// the analysis is the same however many ran together.
    static func analyse(
        _ gameID: Int64, positions: [Position], moves: [Move], depth: Int, on engines: EnginePool,
        owner: String = Analyst.owner
    ) async -> GameAnalysis {
        let results = await searches(
            of: positions, atMost: engines.threadCount, spare: { engines.spareThreads },
            search: { await result(of: $0, depth: depth, on: engines, owner: owner) })
        return analysis(gameID, positions: positions, moves: moves, results: results, depth: depth)
    }

    /// The search of one position of a game (`nil` where the game is over).
    private static func result(of position: Position, depth: Int, on engines: EnginePool, owner: String)
        async -> SearchResult?
    {
        if position.isGameOver { return nil }
        return await engines.search(owner: owner) { $0.analysisSearch(of: position, depth: depth) }
    }

    /// `search`'s result for each of `positions`, in their order: one search at a time, and up to
    /// `atMost` at once while `spare` says that many threads are idle besides those running.
    /// `spare` is read again each time a search ends.
    static func searches(
        of positions: [Position], atMost: Int, spare: @escaping @Sendable () -> Int,
        search: @escaping @Sendable (Position) async -> SearchResult?
    ) async -> [SearchResult?] {
        var results = [SearchResult?](repeating: nil, count: positions.count)
        await withTaskGroup(of: (Int, SearchResult?).self) { group in
            var (next, running) = (0, 0)
            while next < positions.count || running > 0 {
                let room = running == 0 ? max(1, spare()) : spare()
                for _ in 0..<min(room, atMost - running, positions.count - next) {
                    let (index, position) = (next, positions[next])
                    group.addTask { (index, await search(position)) }
                    (next, running) = (next + 1, running + 1)
                }
                guard let (index, result) = await group.next() else { break }
                results[index] = result
                running -= 1
            }
        }
        return results
    }

    /// The analysis from each position's search (`nil` for a position where the game is over).
    static func analysis(
        _ gameID: Int64, positions: [Position], moves: [Move], results: [SearchResult?], depth: Int
    ) -> GameAnalysis {
        GameAnalysis(
            game: gameID, depth: depth, positions: positions, moves: moves,
            findings: results.map { $0.map { ($0.score, $0.bestMove) } })
    }
}
