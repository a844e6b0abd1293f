import NanashiCore
import NanashiProtocol
import NanashiTestSupport
import Testing

@testable import NanashiServer

// The challenges the lobby keeps, told long random sequences of everything clients can make it
// do: challenges by name (to themselves too) and by link, accepts whose games are then started
// or cannot start (so the lobby puts the challenge back), with any other step between,
// declines, withdrawals, refusals, players leaving and logging out, challenges from other
// nodes, and expiry, by players known and unknown, with ids standing, ended and never made. After each step nothing traps and what must always hold
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
    /// The challenges accepted whose games are being started, as `accept` returned them.
    var inFlight: [Challenges.Challenge] = []
    /// The ids of those that ended meanwhile (challenger left, acceptor logged out, ended
    /// elsewhere): none may be put back.
    var endedInFlight: Set<String> = []
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
        switch Int.random(in: 0..<14, using: &random) {
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
                inFlight.append(taken)
            }
        case 6, 13:
            // A game being started starts, or cannot (the acceptor may play casual games only,
            // the challenger is playing, storage failed): the challenge is put back unless it
            // ended meanwhile.
            guard !inFlight.isEmpty else { break }
            let taken = inFlight.remove(at: Int.random(in: 0..<inFlight.count, using: &random))
            if Bool.random(using: &random) {
                trail.append("started \(taken.id)")
                challenges.started(taken.id)
            } else {
                trail.append("restore \(taken.id)")
                let restored = challenges.restore(taken, at: now)
                #expect(
                    (restored == nil) == (endedInFlight.contains(taken.id) || taken.expires <= now),
                    "\(context): \(taken.id) put back \(restored != nil), ended \(endedInFlight.contains(taken.id))"
                )
                if restored != nil { expected.insert(taken.id) }
            }
            endedInFlight.remove(taken.id)
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
                endedInFlight.formUnion(inFlight.filter { $0.from.id == who.id }.map(\.id))
            } else {
                trail.append("logged out \(who.id)")
                let removed = challenges.removeWaiting(for: who.id)
                #expect(removed.allSatisfy { $0.to?.id == who.id }, "seed \(seed)")
                expected.subtract(removed.map(\.id))
                #expect(challenges.waiting(for: who.id).isEmpty, "seed \(seed): \(who.id) logged out")
                endedInFlight.formUnion(
                    inFlight.filter { $0.to?.id == who.id && !$0.acceptedByLink }.map(\.id))
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
            if inFlight.contains(where: { $0.id == id }) { endedInFlight.insert(id) }
        }
        trail = trail.suffix(12)
        check()
    }

    var context: String { "seed \(seed), last steps: \(trail.joined(separator: "; "))" }

    /// What must hold after every step.
    func check() {
        let standing = challenges.standing
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
            let open = sent.count + challenges.taken.values.count { $0.from.id == id }
            #expect(open <= Challenges.mostOpenPerSender, "\(context): \(id) has \(open) open")
            #expect(
                waiting.count <= Challenges.mostWaitingPerPlayer,
                "\(context): \(waiting.count) wait for \(id)")
            #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.expires <= $1.expires }, "\(context)")
        }
        #expect(sentTotal == standing.count, "\(context): sent and standing disagree")
        #expect(
            Set(challenges.taken.keys) == Set(inFlight.map(\.id)).subtracting(endedInFlight),
            "\(context): taken other than being started")
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

/// One run of rematch bookkeeping: games end (with both players or one connected), players ask
/// for rematches of games of theirs, others' and unknown ones, move on, and offers lapse, time
/// only moving forward. The test keeps, from what the type reported, which games may still be
/// rematched and who offered: the type must answer as that says.
private struct FuzzedRematches {
    let seed: UInt64
    var random: SeededGenerator
    var rematches = Rematches()
    var now = origin
    var nextGame: Int64 = 0
    /// Each player's last game, as the lobby told it.
    var last: [Int64: Rematches.Ended] = [:]
    /// The games both players may still rematch: ended with both connected, and since then not
    /// accepted, lapsed, nor moved on from.
    var open: Set<Int64> = []
    /// Who offered each open game's rematch, and when the first offer lapses.
    var offers: [Int64: (by: Set<Int64>, expires: ContinuousClock.Instant)] = [:]
    var trail: [String] = []

    init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed)
    }

    var context: String { "seed \(seed), last steps: \(trail.joined(separator: "; "))" }

    mutating func player() -> Int64 { fuzzPlayerIDs.randomElement(using: &random)! }

    /// `player` moves on, as the lobby tells it; their game's offer, if one stood, lapses.
    mutating func moveOn(_ player: Int64) {
        let lapse = rematches.moveOn(player)
        guard let game = last.removeValue(forKey: player) else {
            #expect(lapse == nil, "\(context): a lapse for \(player), who had no game")
            return
        }
        if last[game.opponent(of: player)] == game { last[game.opponent(of: player)] = nil }
        open.remove(game.game)
        let offer = offers.removeValue(forKey: game.game)
        #expect(lapse?.offerers == offer?.by && lapse.map(\.game) ?? game.game == game.game, "\(context)")
    }

    mutating func step() {
        now += .seconds(Int.random(in: 0...20, using: &random))
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1:
            // A game is played: starting it moved both players on; it ends with both connected,
            // or only one.
            var x = player()
            var o = player()
            while o == x { (x, o) = (player(), player()) }
            nextGame += 1
            trail.append("game \(nextGame) \(x)-\(o)")
            moveOn(x)
            moveOn(o)
            let ended = Rematches.Ended(
                game: nextGame, x: x, o: o, control: TimeControl(initial: 60, increment: 0))
            let connected = Set([x, o].filter { _ in Int.random(in: 0..<4, using: &random) > 0 })
            rematches.ended(ended, connected: connected)
            for player in connected { last[player] = ended }
            if connected.count == 2 { open.insert(nextGame) }
        case 2, 3, 4, 5:
            let by = player()
            let game: Int64 =
                Bool.random(using: &random)
                ? last[by]?.game ?? 0 : Int64.random(in: -1...(nextGame + 1), using: &random)
            let expires = now + .seconds(Int.random(in: 0...60, using: &random))
            trail.append("rematch \(game) by \(by)")
            let decision = rematches.offer(game, by: by, expires: expires)
            guard open.contains(game), let ended = last[by], ended.game == game else {
                #expect(decision == .noSuchGame, "\(context): \(decision)")
                break
            }
            var offer = offers[game] ?? (by: [], expires: expires)
            let first = offer.by.insert(by).inserted
            if offer.by.count == 2 {
                #expect(decision == .accepted(ended), "\(context): \(decision)")
                offers[game] = nil
                open.remove(game)
                last[ended.x] = nil
                last[ended.o] = nil
            } else {
                #expect(decision == .offered(opponent: ended.opponent(of: by), first: first), "\(context)")
                offers[game] = offer
            }
        case 6, 7:
            let who = player()
            trail.append("moves on \(who)")
            moveOn(who)
        default:
            trail.append("expire")
            let lapses = rematches.expire(now: now)
            let due = offers.filter { $0.value.expires <= now }
            #expect(
                Dictionary(uniqueKeysWithValues: lapses.map { ($0.game, $0.offerers) })
                    == due.mapValues(\.by), "\(context): \(lapses)")
            for (game, _) in due {
                offers[game] = nil
                open.remove(game)
                for player in last.keys where last[player]?.game == game { last[player] = nil }
            }
        }
        trail = trail.suffix(12)
    }
}

extension LobbyValuesFuzzTests {
    /// Many runs of random steps on `Rematches`: none traps; a rematch is offered or accepted
    /// only for a player's last game ended with both connected and not since accepted, lapsed
    /// or moved on from; it starts only once both asked; and every lapse names who offered.
    @Test func rematchesToldRandomStepsKeepTheirRules() {
        for seed in UInt64(1)...80 {
            var run = FuzzedRematches(seed: seed)
            for _ in 0..<250 { run.step() }
        }
    }
}
