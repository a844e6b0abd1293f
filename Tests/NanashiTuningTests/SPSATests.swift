import Foundation
import NanashiAI
import NanashiCore
import NanashiMatch
import NanashiTestSupport
import Testing

@testable import NanashiTuning

@Suite struct SPSATests {
    static let aspiration = SearchParameters.tunables.firstIndex { $0.name == "AspirationWindow" }!
    static let divisor = SearchParameters.tunables.firstIndex { $0.name == "ReductionDivisor" }!
    /// A start whose two watched values are round, whatever the standard values are.
    static let start: SearchParameters = {
        var start = SearchParameters.standard
        start.aspirationWindow = 40
        start.reductionDivisor = 130
        return start
    }()

    @Test func theLastIterationNudgesByTheStepAndLearnsAtTheRate() {
        let run = SPSA(start: .standard, iterations: 500, rate: 0.004)
        for index in run.parameters.indices {
            let step = SearchParameters.tunables[index].step
            let last = run.perturbation(index, iteration: 499)
            #expect(abs(last - step) < 1e-9 * step)
            #expect(abs(run.gain(index, iteration: 499) / (last * last) - 0.004) < 1e-12)
            // Larger at first, by the schedules' powers.
            #expect(abs(run.perturbation(index, iteration: 0) / last - pow(500, 0.101)) < 1e-9)
            let gainRatio = run.gain(index, iteration: 0) / run.gain(index, iteration: 499)
            #expect(abs(gainRatio - pow(550.0 / 51.0, 0.602)) < 1e-9)
        }
    }

    @Test func aResultMovesEachParameterByItsSignAndClampsToItsRange() {
        // One iteration is the last: the move is rate × step × result × sign.
        var run = SPSA(start: Self.start, iterations: 1, rate: 0.01)
        var signs = Array(repeating: 1.0, count: run.parameters.count)
        signs[Self.divisor] = -1
        run.record(iteration: 0, signs: signs, result: 2)
        let (window, divisor): (Double, Double) = (40.1, 129.8)
        #expect(abs(run.parameters[Self.aspiration].value - window) < 1e-9)
        #expect(abs(run.parameters[Self.divisor].value - divisor) < 1e-9)
        #expect(run.completed == 1)
        #expect(run.balance == 2)

        var start = SearchParameters.standard
        start.aspirationWindow = 150
        var atTheTop = SPSA(start: start, iterations: 1, rate: 0.01)
        atTheTop.record(iteration: 0, signs: Array(repeating: 1, count: run.parameters.count), result: 2)
        #expect(atTheTop.parameters[Self.aspiration].value == 150)
        #expect(atTheTop.current.aspirationWindow == 150)
    }

    @Test func theSidesAreNudgedApartAndRoundedWithoutBias() {
        let run = SPSA(start: Self.start, iterations: 10)
        let signs = run.signs(from: RandomSource(seed: 1))
        let (up, down) = run.sides(iteration: 9, signs: signs, random: RandomSource(seed: 2))
        // A whole value nudged by a whole step needs no rounding.
        #expect(up.aspirationWindow == 40 + Int(5 * signs[Self.aspiration]))
        #expect(down.aspirationWindow == 40 - Int(5 * signs[Self.aspiration]))
        #expect(up.reductionDivisor == 130 + Int(10 * signs[Self.divisor]))
        // LateMoveFactor 2 nudged by half a step: 2.5 becomes 2 or 3, each about half the time.
        let factor = SearchParameters.tunables.firstIndex { $0.name == "LateMoveFactor" }!
        var signsUp = signs
        signsUp[factor] = 1
        let random = RandomSource(seed: 3)
        let threes = (0..<2_000).filter { _ in
            run.sides(iteration: 9, signs: signsUp, random: random).up.lateMoveFactor == 3
        }.count
        #expect((900...1_100).contains(threes), "\(threes) of 2000 rounded up")
    }

    /// On a made-up game where the side nearer a divisor of 200 wins the pair, the run finds it.
    @Test func aRunClimbsTowardsWhatWins() {
        var run = SPSA(start: .standard, iterations: 400, rate: 0.05)
        let random = RandomSource(seed: 7)
        for k in 0..<run.iterations {
            let signs = run.signs(from: random)
            let (up, down) = run.sides(iteration: k, signs: signs, random: random)
            let (upMiss, downMiss) = (abs(up.reductionDivisor - 200), abs(down.reductionDivisor - 200))
            run.record(iteration: k, signs: signs, result: upMiss < downMiss ? 2 : upMiss > downMiss ? -2 : 0)
        }
        #expect(abs(run.parameters[Self.divisor].value - 200) <= 15, "\(run.parameters[Self.divisor].value)")
        #expect(run.completed == 400)
    }

    @Test func aSavedRunResumesAsItWasAndAnotherBuildsRunIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (state, values) = (
            folder.appendingPathComponent("run.json").path, folder.appendingPathComponent("values.txt").path
        )
        let fresh = try SPSA.resuming(state, start: .standard, iterations: 30)
        #expect(fresh.resumed == false)
        var run = fresh.run
        run.record(iteration: 0, signs: Array(repeating: -1, count: run.parameters.count), result: 2)
        try run.save(to: state, values: values)
        let resumed = try SPSA.resuming(state, start: .standard, iterations: 99)
        #expect(resumed.resumed)
        #expect(resumed.run == run)
        let saved = try String(contentsOfFile: values, encoding: .utf8)
        #expect(saved.hasPrefix("# nanashi tune --spsa: 1 of 30 iterations\n"))
        #expect(try SearchParameters(text: saved) == run.current)

        let other = try String(contentsOfFile: state, encoding: .utf8)
            .replacingOccurrences(of: "\"AspirationWindow\"", with: "\"Window\"")
        try other.write(toFile: state, atomically: true, encoding: .utf8)
        #expect(
            throws: ParameterError("'\(state)' tunes other parameters than this build's; start a new file")
        ) {
            try SPSA.resuming(state, start: .standard, iterations: 30)
        }
        try "{}".write(toFile: state, atomically: true, encoding: .utf8)
        #expect(throws: ParameterError("'\(state)' is not a saved SPSA run")) {
            try SPSA.resuming(state, start: .standard, iterations: 30)
        }
    }

    /// Real games, a few short ones: each pair is saved as it ends, and the same seed plays the
    /// same run.
    @Test func aRunPlaysAndSavesEachPair() throws {
        var games = try SPSA.games(
            nodes: 300, movetime: nil, tc: nil, concurrency: 1, openings: nil, seed: 11)
        games.maxPlies = 30
        let saves = Saves()
        let start = SPSA(start: .standard, iterations: 3, rate: 0.5)
        let first = try start.run(games, save: { saves.add($0) }, line: { saves.add(line: $0) })
        #expect(first.completed == 3)
        #expect(saves.runs.map(\.completed) == [1, 2, 3])
        #expect(saves.lines.count == 3)
        #expect(saves.lines[0].hasPrefix("iteration 1/3: "))
        #expect(saves.lines[2].contains("\n  AspirationWindow="))
        let again = try start.run(games, save: { _ in }, line: { _ in })
        #expect(again == first)
    }

    @Test func badGamesOptionsAreRefused() {
        #expect(throws: MatchError("bad nodes 0: use 1 or more")) {
            try SPSA.games(nodes: 0, movetime: nil, tc: nil, concurrency: 1, openings: nil, seed: 1)
        }
        #expect(throws: MatchError("bad time control 'eight': use SECONDS+INCREMENT, like 10+0.1")) {
            try SPSA.games(nodes: nil, movetime: nil, tc: "eight", concurrency: 1, openings: nil, seed: 1)
        }
        let timed = try? SPSA.games(nodes: nil, movetime: 50, tc: nil, concurrency: 2, openings: nil, seed: 1)
        #expect(timed?.play.limits.nodes == nil)
        #expect(timed?.play.limits.movetime == .milliseconds(50))
        let untimed = try? SPSA.games(
            nodes: nil, movetime: nil, tc: nil, concurrency: 1, openings: nil, seed: 1)
        #expect(untimed?.play.limits.nodes == 20_000)
    }
}

/// What a run reported, from whichever thread.
private final class Saves: @unchecked Sendable {
    private let lock = NSLock()
    private var savedRuns: [SPSA] = []
    private var savedLines: [String] = []

    func add(_ run: SPSA) { lock.withLock { savedRuns.append(run) } }
    func add(line: String) { lock.withLock { savedLines.append(line) } }
    var runs: [SPSA] { lock.withLock { savedRuns } }
    var lines: [String] { lock.withLock { savedLines } }
}
