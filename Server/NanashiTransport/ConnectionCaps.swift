import NanashiProtocol
import Synchronization

/// The open connections, counted overall and per client address (`ClientAddress.key`) from the
/// moment they are accepted, whatever they turn out to be (protocol, WebSocket or pages, a
/// request head still coming in or none at all), until their socket closes.
///
/// Every socket is a file descriptor, refused ones too while they are told why, and a process
/// that runs out of descriptors fails in places that cannot fail gracefully (libdispatch's
/// worker monitor opens files under `/proc` and traps when it cannot: the SIGILL seen under a
/// low `ulimit -n`). So sockets are kept within `descriptors`, a budget below the process's
/// limit: admitted connections get all of it but room for refusals (a quarter of it, at most
/// 256), and a connection accepted when the whole budget is in use is closed at once without a
/// word. An address is told why at most `maximumPerAddress` times at once: past that its
/// connections are closed without a word too, so that one address cannot fill the budget with
/// refusals and have everyone else's connections dropped.
package final class ConnectionCaps: Sendable {
    /// Admitted connections at most: the configured cap, or less if descriptors are short.
    package let maximum: Int
    package let maximumPerAddress: Int
    /// Sockets (admitted, or refused and being told why) at most.
    package let descriptors: Int
    private let counts = Mutex(Counts())

    private struct Counts {
        package var admitted = 0
        package var refusing = 0
        package var perAddress: [String: Int] = [:]
        package var refusingPerAddress: [String: Int] = [:]
    }

    /// What becomes of a connection just accepted.
    package enum Verdict: Equatable {
        case admitted
        /// Refused: told why (`busy`, `rate_limited`), then closed.
        case refused(ProtocolError)
        /// Closed at once: no descriptor is left to spare for telling it why.
        case dropped
    }

    package init(maximum: Int, perAddress: Int, descriptors: Int) {
        self.descriptors = max(1, descriptors)
        self.maximum = max(1, min(maximum, self.descriptors - min(self.descriptors / 4, 256)))
        self.maximumPerAddress = perAddress
    }

    /// Counts a connection from `address` in, or says why not (`busy` when the server is full,
    /// `rate_limited` when the address has its share). Call `release` when its socket closes,
    /// whatever the verdict.
    package func admit(_ address: String) -> Verdict {
        counts.withLock { counts in
            if counts.admitted + counts.refusing >= descriptors { return .dropped }
            var refusal: ProtocolError?
            let count = counts.perAddress[address] ?? 0
            if counts.admitted >= maximum {
                refusal = ProtocolError(.busy, "the server is full; try again in a minute")
            } else if count >= maximumPerAddress {
                refusal = ProtocolError(
                    .rateLimited, "too many connections from your address (at most \(maximumPerAddress))")
            }
            if let refusal {
                let refusing = counts.refusingPerAddress[address] ?? 0
                guard refusing < maximumPerAddress else { return .dropped }
                counts.refusing += 1
                counts.refusingPerAddress[address] = refusing + 1
                return .refused(refusal)
            }
            counts.admitted += 1
            counts.perAddress[address] = count + 1
            return .admitted
        }
    }

    /// Counts the connection from `address` that got `verdict` out.
    package func release(_ address: String, _ verdict: Verdict) {
        counts.withLock { counts in
            switch verdict {
            case .admitted:
                counts.admitted -= 1
                let left = (counts.perAddress[address] ?? 1) - 1
                counts.perAddress[address] = left > 0 ? left : nil
            case .refused:
                counts.refusing -= 1
                let left = (counts.refusingPerAddress[address] ?? 1) - 1
                counts.refusingPerAddress[address] = left > 0 ? left : nil
            case .dropped: break
            }
        }
    }

    /// Admitted connections open now.
    package var admittedCount: Int { counts.withLock { $0.admitted } }

    /// The descriptors connections may use under a process limit of `limit` with `open`
    /// already open: what is left but a reserve for the database's readers, the log, and what
    /// libraries open on their own.
    package static func descriptorBudget(limit: Int, open: Int) -> Int {
        limit >= Int.max / 2 ? Int.max / 2 : max(1, limit - open - reserve)
    }

    /// Descriptors kept out of the connections' reach.
    package static let reserve = 32
}
