import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

@testable import NanashiServer

// The challenges the lobby keeps, told long random sequences of everything clients can make it
// do: challenges by name (to themselves too) and by link, accepts (some whose game then cannot
// start, so the lobby puts the challenge back), declines, withdrawals, refusals, players leaving
// and logging out, challenges from other nodes, and expiry, by players known and unknown, with
// ids standing, ended and never made. After each step nothing traps and what must always hold
// holds. Seeded, with no real time: a failure names the seed that replays it.

/// The instant the runs count from.
private let origin = ContinuousClock.now

/// Few players, so that the limits are reached; 99 never challenges anyone.
private let fuzzPlayerIDs: [Int64] = [1, 2, 3, 4, 5, 6, 99]

private func fuzzPlayer(_ id: Int64) -> Challenges.Player {
    Challenges.Player(id: id, name: "p\(id)", rating: 1500)
}

/// One run: the challenges, and what the test expects of them from the outside.
private struct FuzzedChallenges {
    let seed: UInt64
    var random: SeededGenerator
    var challenges = Challenges()
    var now = origin
    /// The ids expected to stand: those added and not yet reported taken out.
    var expected: Set<String> = []
    /// Every id ever made, to ask about again after it ended.
    var made: [String] = []
    /// The ids of challenges made by link.
    var byLink: Set<String> = []
    /// The last time expiry ran: nothing that expired by then may stand.
    var expiredAt: ContinuousClock.Instant?
    var nextID = 0
    /// The last steps, for the failure message.
    var trail: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed)
    }

    mutating func player() -> Challenges.Player {
        fuzzPlayer(fuzzPlayerIDs.randomElement(using: &random)!)
    }

    /// An id standing, ended, or never made.
    mutating func someID() -> String {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return "never\(Int.random(in: 0..<3, using: &random))"
        case 1: return made.randomElement(using: &random) ?? "none"
        default: return challenges.standing.keys.sorted().randomElement(using: &random) ?? "none"
        }
    }

    mutating func newID() -> String {
        nextID += 1
        return "c\(nextID)"
    }

    mutating func step() {
        now += .seconds(Int.random(in: 0...90, using: &random))
        let terms = ChallengeTerms(
            control: TimeControl(initial: 60, increment: 0), rated: Bool.random(using: &random))
        switch Int.random(in: 0..<13, using: &random) {
        case 0, 1, 2:
            let (from, to, id) = (player(), player(), newID())
            trail.append("add \(id) \(from.id)->\(to.id)")
            if let added = try? challenges.add(id: id, from: from, to: to, terms: terms, at: now) {
                #expect(added.id == id && added.from == from && added.to == to, "seed \(seed)")
                expected.insert(id)
                made.append(id)
            }
        case 3:
            let (from, id) = (player(), newID())
            trail.append("link \(id) \(from.id)")
            if (try? challenges.add(id: id, from: from, to: nil, terms: terms, at: now)) != nil {
                expected.insert(id)
                made.append(id)
                byLink.insert(id)
            }
        case 4, 5:
            let (id, by) = (someID(), player())
            trail.append("accept \(id) by \(by.id)")
            if let taken = try? challenges.accept(id, by: by) {
                #expect(taken.to == by && taken.from != by, "seed \(seed)")
                expected.remove(id)
            }
        case 6:
            // The lobby takes a challenge out to start its game; the game cannot start (the
            // acceptor may play casual games only, the challenger is playing, storage failed):
            // the challenge is put back.
            let (id, by) = (someID(), player())
            trail.append("accept \(id) by \(by.id), then restore")
            if let taken = try? challenges.accept(id, by: by) { challenges.restore(taken) }
        case 7:
            let (id, by) = (someID(), player())
            trail.append("decline \(id) by \(by.id)")
            if let declined = try? challenges.decline(id, by: by.id, at: now) {
                #expect(declined.to?.id == by.id, "seed \(seed)")
                expected.remove(id)
                // Its challenger may not challenge them again at once.
                let again = newID()
                #expect(
                    (try? challenges.add(id: again, from: declined.from, to: by, terms: terms, at: now))
                        == nil,
                    "seed \(seed): challenged again right after a decline")
            }
        case 8:
            let (id, by) = (someID(), player())
            trail.append("withdraw \(id) by \(by.id)")
            if let withdrawn = try? challenges.withdraw(id, by: by.id) {
                #expect(withdrawn.from.id == by.id, "seed \(seed)")
                expected.remove(id)
            }
        case 9:
            trail.append("expire")
            let expired = challenges.expire(at: now)
            #expect(expired.allSatisfy { $0.expires <= now }, "seed \(seed)")
            expected.subtract(expired.map(\.id))
            expiredAt = now
        case 10:
            let who = player()
            if Bool.random(using: &random) {
                trail.append("left \(who.id)")
                let removed = challenges.removeSent(by: who.id)
                #expect(removed.allSatisfy { $0.from.id == who.id }, "seed \(seed)")
                expected.subtract(removed.map(\.id))
                #expect(challenges.sent(by: who.id).isEmpty, "seed \(seed): \(who.id) left")
            } else {
                trail.append("logged out \(who.id)")
                let removed = challenges.removeWaiting(for: who.id)
                #expect(removed.allSatisfy { $0.to?.id == who.id }, "seed \(seed)")
                expected.subtract(removed.map(\.id))
                #expect(challenges.waiting(for: who.id).isEmpty, "seed \(seed): \(who.id) logged out")
            }
        case 11:
            let (who, accepting) = (player(), Bool.random(using: &random))
            trail.append("accepting \(who.id) \(accepting)")
            challenges.setAccepting(accepting, for: who.id)
            if !accepting {
                let (from, id) = (player(), newID())
                #expect(
                    (try? challenges.add(id: id, from: from, to: who, terms: terms, at: now)) == nil,
                    "seed \(seed): \(who.id) refuses challenges")
            }
        default:
            // Another node's challenge ends (or a shared end arrives for one long gone).
            let id = someID()
            trail.append("ended elsewhere \(id)")
            if challenges.remove(id) != nil { expected.remove(id) }
        }
        trail = trail.suffix(12)
        check()
    }

    /// What must hold after every step.
    func check() {
        let standing = challenges.standing
        let context = "seed \(seed), last steps: \(trail.joined(separator: "; "))"
        #expect(Set(standing.keys) == expected, "\(context): stands other than it was told")
        for (id, challenge) in standing {
            #expect(challenge.id == id, "\(context)")
            #expect(challenge.to?.id != challenge.from.id, "\(context): \(id) challenges its challenger")
            #expect(challenge.expires <= now + Challenges.lifetime, "\(context)")
            if let expiredAt {
                #expect(challenge.expires > expiredAt, "\(context): \(id) stands after it expired")
            }
            if byLink.contains(id) {
                #expect(challenge.to == nil, "\(context): link \(id) is no longer open to all")
            }
        }
        var sentTotal = 0
        var waitingTotal = 0
        for id in fuzzPlayerIDs {
            let sent = challenges.sent(by: id)
            let waiting = challenges.waiting(for: id)
            sentTotal += sent.count
            waitingTotal += waiting.count
            #expect(sent.count <= Challenges.mostOpenPerSender, "\(context): \(id) has \(sent.count) open")
            #expect(
                waiting.count <= Challenges.mostWaitingPerPlayer,
                "\(context): \(waiting.count) wait for \(id)")
            #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.expires <= $1.expires }, "\(context)")
        }
        #expect(sentTotal == standing.count, "\(context): sent and standing disagree")
        #expect(waitingTotal == standing.values.filter { $0.to != nil }.count, "\(context)")
    }
}

@Suite struct LobbyValuesFuzzTests {
    /// Many runs of random steps on `Challenges`: none traps, the limits per sender and per
    /// player hold, nothing stands after it expired, ended or its challenger left, a link stays
    /// open to all, and what stands is exactly what was added and not reported taken out.
    @Test func challengesToldRandomStepsKeepTheirRules() {
        for seed in UInt64(1)...80 {
            var run = FuzzedChallenges(seed: seed)
            for _ in 0..<250 { run.step() }
        }
    }
}
