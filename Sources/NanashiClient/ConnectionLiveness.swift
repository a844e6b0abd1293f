/// Whether a connection still has a server at the other end, judged from when lines went out and
/// came in: a plain value that the connection asks about once a second.
///
/// A client silent for `keepAlive` pings, so that the server does not take it for gone. The
/// server answers every request, so a server that has sent no line at all for `answerWithin`
/// after a request went out is taken for gone, and the connection is given up (a dead server,
/// or a network that silently dropped the connection, would otherwise never be noticed).
struct ConnectionLiveness: Sendable {
    /// What to do about the connection now.
    enum Verdict: Hashable, Sendable {
        /// Nothing: all is well.
        case wait
        /// Send a `ping`: the client has been silent for `keepAlive`.
        case ping
        /// Close the connection: a request has gone unanswered, with no line at all from the
        /// server, for `answerWithin`.
        case giveUp
    }

    /// How long the client may stay silent before it pings.
    let keepAlive: Duration
    /// How long the server may stay silent while a request waits for its answer.
    let answerWithin: Duration
    private var lastSent: ContinuousClock.Instant
    /// When the first request sent since the server's last line went out; `nil` when none is waiting.
    private var waitingSince: ContinuousClock.Instant?

    /// A connection opened at `opened`, nothing sent or received yet.
    init(keepAlive: Duration, answerWithin: Duration, opened: ContinuousClock.Instant) {
        self.keepAlive = keepAlive
        self.answerWithin = answerWithin
        lastSent = opened
    }

    /// A request went out at `now`.
    mutating func sent(at now: ContinuousClock.Instant) {
        lastSent = now
        if waitingSince == nil { waitingSince = now }
    }

    /// A line came in from the server at `now`: it is there.
    mutating func received(at now: ContinuousClock.Instant) {
        waitingSince = nil
    }

    /// What to do at `now`.
    func verdict(at now: ContinuousClock.Instant) -> Verdict {
        if let waitingSince, now - waitingSince >= answerWithin { return .giveUp }
        return now - lastSent >= keepAlive ? .ping : .wait
    }
}
