import NanashiRuntime
import NanashiStorage
import NanashiTransport

extension ServerSettings {
    /// What is wrong with the settings `nanashi serve` takes from its options (the ports, the
    /// grace, the node lease, the idle timeout, the database, the message budget, the connection
    /// and login limits, the commit delay), named by
    /// those options; `nil` when nothing is.
    public var problem: String? {
        guard (0...65535).contains(port) else { return "bad port \(port): use 0 to 65535" }
        guard (0...65535).contains(httpPort ?? 0) else {
            return "bad HTTP port \(httpPort ?? 0): use 0 to 65535"
        }
        guard (0...65535).contains(metricsPort ?? 0) else {
            return "bad metrics port \(metricsPort ?? 0): use 0 to 65535"
        }
        if let bad = allowedOrigins.first(where: { !WebSocketOrigin.isWellFormed($0) }) {
            return "bad origin '\(bad.prefix(80))': write it as a page's address, like https://example.org"
        }
        if let bad = publicHosts.first(where: { !WebSocketOrigin.isWellFormedHost($0) }) {
            return
                "bad public host '\(bad.prefix(80))': write it as a name, like example.org or example.org:8443"
        }
        guard abandonGrace >= .seconds(1) else {
            return "bad grace \(abandonGrace.components.seconds): use 1 second or more"
        }
        guard (Duration.seconds(1)...Duration.seconds(3_600)).contains(nodeLease) else {
            return "bad node lease \(nodeLease.components.seconds): use 1 to 3600 seconds"
        }
        guard (Duration.seconds(1)...Duration.seconds(86_400)).contains(idleTimeout) else {
            return "bad idle timeout \(idleTimeout.components.seconds): use 1 to 86400 seconds"
        }
        guard (0...3_600).contains(backgroundAnalysesPerHour) else {
            return "bad background analyses \(backgroundAnalysesPerHour): use 0 to 3600 an hour"
        }
        guard messageBurst >= 1 else { return "bad message burst \(messageBurst): use 1 or more" }
        guard messageRate > 0, messageRate.isFinite else {
            return "bad message rate \(messageRate): use more than 0"
        }
        guard readBurstPerAddress >= 1 else { return "bad read burst \(readBurstPerAddress): use 1 or more" }
        guard readRatePerAddress > 0, readRatePerAddress.isFinite else {
            return "bad read rate \(readRatePerAddress): use more than 0"
        }
        guard maximumConnections >= 1, maximumConnectionsPerAddress >= 1 else {
            return
                "bad connection limits \(maximumConnections), \(maximumConnectionsPerAddress): use 1 or more"
        }
        guard connectionBurstPerAddress >= 1 else {
            return "bad connection burst \(connectionBurstPerAddress): use 1 or more"
        }
        guard connectionRatePerAddress > 0, connectionRatePerAddress.isFinite else {
            return "bad connection rate \(connectionRatePerAddress): use more than 0"
        }
        guard loginsPerMinute >= 1, registrationsPerHour >= 1, loginsPerMinute.isFinite,
            registrationsPerHour.isFinite
        else { return "bad login or registration rate: use 1 or more" }
        guard (Duration.zero...Duration.milliseconds(100)).contains(moveCommitDelay) else {
            return "bad commit delay \(moveCommitDelay.wholeMilliseconds): use 0 to 100 milliseconds"
        }
        do {
            _ = try DatabaseAddress(parsing: databasePath)
        } catch {
            return "bad --db: \(error)"
        }
        return nil
    }
}
