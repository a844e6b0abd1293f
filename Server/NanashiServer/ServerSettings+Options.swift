import Logging
import NanashiRuntime

extension ServerSettings {
    /// Why `nanashi serve`'s options cannot make a server, in one line.
    public struct Problem: Error, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The settings of `nanashi serve`'s options, the defaults for the rest, checked: `problem`'s
    /// limits hold, and the TLS certificate chain and key are given together or not at all.
    ///
    /// - Throws: `Problem`, named by the options.
    public init(
        host: String, port: Int, httpPort: Int?, httpHost: String, metricsPort: Int?, metricsHost: String,
        allowedOrigins: [String], publicHosts: [String] = [], databasePath: String, graceSeconds: Int,
        nodeLeaseSeconds: Int,
        idleTimeoutSeconds: Int,
        messageBurst: Int, messageRate: Double, readBurstPerAddress: Int, readRatePerAddress: Double,
        maximumConnections: Int, maximumConnectionsPerAddress: Int, connectionBurstPerAddress: Int,
        connectionRatePerAddress: Double, loginsPerMinute: Double, registrationsPerHour: Double,
        moveCommitDelayMilliseconds: Int, backgroundAnalysesPerHour: Double = 6,
        tlsCertificateChain: String?, tlsKey: String?
    ) throws(Problem) {
        self.init()
        self.host = host
        self.port = port
        self.httpPort = httpPort
        self.httpHost = httpHost
        self.metricsPort = metricsPort
        self.metricsHost = metricsHost
        self.allowedOrigins = allowedOrigins
        self.publicHosts = publicHosts
        self.databasePath = databasePath
        abandonGrace = .seconds(graceSeconds)
        nodeLease = .seconds(nodeLeaseSeconds)
        idleTimeout = .seconds(idleTimeoutSeconds)
        self.messageBurst = messageBurst
        self.messageRate = messageRate
        self.readBurstPerAddress = readBurstPerAddress
        self.readRatePerAddress = readRatePerAddress
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.connectionBurstPerAddress = connectionBurstPerAddress
        self.connectionRatePerAddress = connectionRatePerAddress
        self.loginsPerMinute = loginsPerMinute
        self.registrationsPerHour = registrationsPerHour
        moveCommitDelay = .milliseconds(moveCommitDelayMilliseconds)
        self.backgroundAnalysesPerHour = backgroundAnalysesPerHour
        if let problem { throw Problem(description: problem) }
        switch (tlsCertificateChain, tlsKey) {
        case (nil, nil): break
        case (let chain?, let key?): tls = TLSFiles(certificateChain: chain, privateKey: key)
        default: throw Problem(description: "--tls-cert and --tls-key go together")
        }
    }

    /// The log level named `name` (`trace`, `debug`, `info`, `notice`, `warning`, `error` or
    /// `critical`).
    public static func logLevel(named name: String) throws(Problem) -> Logger.Level {
        guard let level = Logger.Level(rawValue: name) else {
            throw Problem(description: "bad log level '\(name)'")
        }
        return level
    }
}
