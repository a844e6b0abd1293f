import Logging
import NanashiRuntime

extension ServerSettings {
    /// Why `nanashi serve`'s options cannot make a server, in one line.
    public struct Problem: Error, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// Serves TLS with the PEM certificate chain and key given, or plain TCP when neither is;
    /// the two go together.
    ///
    /// - Throws: `Problem` when only one of them is given.
    public mutating func serveTLS(certificateChain: String?, key: String?) throws(Problem) {
        switch (certificateChain, key) {
        case (nil, nil): tls = nil
        case (let chain?, let key?): tls = TLSFiles(certificateChain: chain, privateKey: key)
        default: throw Problem(description: "--tls-cert and --tls-key go together")
        }
    }

    /// Checks that `problem`'s limits hold.
    ///
    /// - Throws: `Problem`, named by the options.
    public func check() throws(Problem) {
        if let problem { throw Problem(description: problem) }
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
