import Prometheus

/// What `/metrics` reports, in Prometheus' text format: each server has its own registry, so
/// servers in one process (the tests') count apart.
package final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    /// Open connections, by transport (`tcp`, `websocket`); web pages are not counted.
    private let tcpConnections: Gauge
    private let webSocketConnections: Gauge
    /// Games in progress, read from the lobby when the metrics are asked for.
    package let gamesInProgress: Gauge
    /// Moves accepted, and the time from reading each one off the socket to its `moved` being sent.
    private let moves: Counter
    private let moveLatency: DurationHistogram

    package init() {
        tcpConnections = registry.makeGauge(descriptor: Self.connections, labels: [("transport", "tcp")])
        webSocketConnections = registry.makeGauge(
            descriptor: Self.connections, labels: [("transport", "websocket")])
        gamesInProgress = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "nanashi", metricName: "games_in_progress", unitName: "",
                helpText: "Games being played now."))
        moves = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "nanashi", metricName: "moves", unitName: "total", helpText: "Moves accepted."))
        moveLatency = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "nanashi", metricName: "move_latency", unitName: "seconds",
                helpText: "From a move read off the socket to its moved reply sent."),
            buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5].map {
                Duration.nanoseconds(Int64($0 * 1e9))
            })
        // Every label value exists from the start, so a scrape reads zeros rather than nothing.
        for kind in ["register", "login", "auth"] { _ = loginCounter(kind) }
    }

    private static var connections: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "nanashi", metricName: "connections", unitName: "",
            helpText: "Open protocol connections.")
    }

    /// A protocol connection opened (+1) or closed (-1).
    package func connection(webSocket: Bool, change: Double) {
        (webSocket ? webSocketConnections : tcpConnections).increment(by: change)
    }

    /// A move was accepted; `latency` from reading it to answering it.
    package func moved(latency: Duration) {
        moves.increment()
        moveLatency.record(latency)
    }

    /// A player logged in: `kind` is `register`, `login` or `auth`.
    package func loggedIn(_ kind: String) {
        loginCounter(kind).increment()
    }

    /// An error reply was sent, by its protocol code.
    package func error(_ code: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "nanashi", metricName: "errors", unitName: "total",
                helpText: "Error replies sent, by their protocol code."),
            labels: [("code", code)]
        ).increment()
    }

    private func loginCounter(_ kind: String) -> Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "nanashi", metricName: "logins", unitName: "total",
                helpText: "Logins that succeeded, by kind (register, login, auth)."),
            labels: [("kind", kind)])
    }

    /// The text Prometheus scrapes.
    package func text() -> String {
        registry.emitToString()
    }
}
