import NIOCore
import NanashiProtocol
import Synchronization

/// The counters every bot of a run adds to, behind one lock (bots run on several event loops).
final class LoadStats: Sendable {
    private struct State {
        var seekTickets: Int
        /// The games the run wants: once that many have started, every game is going.
        let gamesWanted: Int
        /// When the people's run began, and when its last game started.
        var began: NIODeadline?
        var allStartedAt: Double?
        var connected = 0
        var peakConnected = 0
        var started: Set<Int64> = []
        var ended: Set<Int64> = []
        /// Games started and not yet ended, now and at the most.
        var playing = 0
        var peakPlaying = 0
        var moves: [MoveSample] = []
        var resigns = 0
        var reconnects = 0
        var errors: [String: Int] = [:]
        var finishedBots = 0
        var registered: [BotAccount] = []
        /// Where the previous progress line stopped reading the samples.
        var progressMark = 0
        /// Games against the engine under way now, and the engine's moves since the people's
        /// run began.
        var engineGamesPlaying = 0
        var engineGamesEnded = 0
        var engineMoves = 0
        var peopleStarted = false
    }

    private let state: Mutex<State>

    /// Two seek tickets per game wanted: each seek takes one, so exactly that many games start.
    init(games: Int) { state = Mutex(State(seekTickets: 2 * games, gamesWanted: games)) }

    /// Takes the right to seek one more game; `false` once every game wanted is sought.
    func takeSeekTicket() -> Bool {
        state.withLock { state in
            guard state.seekTickets > 0 else { return false }
            state.seekTickets -= 1
            return true
        }
    }

    func connected() {
        state.withLock { state in
            state.connected += 1
            state.peakConnected = max(state.peakConnected, state.connected)
        }
    }
    func disconnected() { state.withLock { $0.connected -= 1 } }
    /// Each game counts once, though both of its bots report it.
    func started(_ game: Int64) {
        state.withLock { state in
            guard state.started.insert(game).inserted, !state.ended.contains(game) else { return }
            state.playing += 1
            state.peakPlaying = max(state.peakPlaying, state.playing)
            if state.started.count == state.gamesWanted, let began = state.began {
                state.allStartedAt = Self.seconds(from: began, to: .now())
            }
        }
    }
    func ended(_ game: Int64) {
        state.withLock { state in
            guard state.ended.insert(game).inserted, state.started.contains(game) else { return }
            state.playing -= 1
        }
    }
    /// A move sent at `sent` was acknowledged after `microseconds`.
    func moved(sent: NIODeadline, microseconds: UInt32) {
        state.withLock { state in
            let sentAt = state.began.map { Self.seconds(from: $0, to: sent) } ?? 0
            state.moves.append(MoveSample(sentAt: sentAt, microseconds: microseconds))
        }
    }
    func resigned() { state.withLock { $0.resigns += 1 } }
    func reconnected() { state.withLock { $0.reconnects += 1 } }
    func error(_ code: String) { state.withLock { $0.errors[code, default: 0] += 1 } }
    func botFinished() { state.withLock { $0.finishedBots += 1 } }
    func engineGameStarted() { state.withLock { $0.engineGamesPlaying += 1 } }
    func engineGameEnded() {
        state.withLock { state in
            state.engineGamesPlaying -= 1
            if state.peopleStarted { state.engineGamesEnded += 1 }
        }
    }
    func engineMoved() { state.withLock { state in if state.peopleStarted { state.engineMoves += 1 } } }
    /// The people's run begins: the engine's moves count from now.
    func peopleStarted() {
        state.withLock { state in
            state.peopleStarted = true
            state.began = .now()
        }
    }

    private static func seconds(from start: NIODeadline, to end: NIODeadline) -> Double {
        Double((end - start).nanoseconds) / 1e9
    }
    var engineGamesPlaying: Int { state.withLock { $0.engineGamesPlaying } }
    func registered(_ account: BotAccount) { state.withLock { $0.registered.append(account) } }

    var finishedBots: Int { state.withLock { $0.finishedBots } }
    var registeredAccounts: [BotAccount] { state.withLock { $0.registered } }

    /// The progress since the previous call.
    func progress(seconds: Double, sinceSeconds: Double) -> LoadProgress {
        state.withLock { state in
            let recent = state.moves[state.progressMark...].map(\.microseconds)
            state.progressMark = state.moves.count
            let p99 = LatencySummary.percentile(99, ofSorted: recent.sorted()).map { Double($0) / 1000 }
            return LoadProgress(
                seconds: seconds, connected: state.connected, gamesCompleted: state.ended.count,
                gamesPlaying: state.playing,
                moves: state.moves.count,
                recentMovesPerSecond: sinceSeconds > 0 ? Double(recent.count) / sinceSeconds : 0,
                recentP99: p99 ?? 0, errors: state.errors.values.reduce(0, +))
        }
    }

    func report(clients: Int, games: Int, seconds: Double) -> LoadReport {
        state.withLock { state in
            LoadReport(
                clients: clients, peakConnected: state.peakConnected, gamesTarget: games,
                gamesCompleted: state.ended.count, gamesUnfinished: state.playing,
                peakGamesPlaying: state.peakPlaying,
                moves: state.moves.count, seconds: seconds,
                latency: LatencySummary(microseconds: state.moves.lazy.map(\.microseconds)),
                allGoing: state.allStartedAt.map { moment in
                    AllGamesGoing(
                        from: moment, latency: LatencySummary(movesSentFrom: moment, of: state.moves))
                },
                resigns: state.resigns,
                reconnects: state.reconnects, errors: state.errors,
                engine: state.engineGamesPlaying + state.engineGamesEnded > 0
                    ? EngineLoad(
                        gamesPlaying: state.engineGamesPlaying, gamesEnded: state.engineGamesEnded,
                        moves: state.engineMoves)
                    : nil)
        }
    }
}
