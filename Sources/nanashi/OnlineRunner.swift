import Foundation
import NanashiClient

/// The input and output around an `OnlineSession`: the connection, standard input read on a
/// thread of its own (so a move can arrive while the player is typing), clock ticks on a
/// terminal, the prompts for a name and password, and the kept session token.
///
/// Everything reaches the session through one stream, one event at a time.
final class OnlineRunner {
    private enum Input: Sendable {
        case event(OnlineSession.Event)
        /// A message or the end of connection number `generation` (older ones are ignored).
        case server(generation: Int, ServerEvent)
        case opened(ServerConnection)
    }

    private var session: OnlineSession
    private let console: Console
    private let login: OnlineLogin
    private let address: ServerAddress
    private let sink: AsyncStream<Input>.Continuation
    private var inputs: AsyncStream<Input>.Iterator
    private var connection: ServerConnection?
    private var generation = 0

    init(session: OnlineSession, address: ServerAddress, login: OnlineLogin, console: Console) {
        self.session = session
        self.address = address
        self.login = login
        self.console = console
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        sink = continuation
        inputs = stream.makeAsyncIterator()
    }

    /// Runs the session to its end.
    ///
    /// - Throws: `InputError` when the server cannot be reached at first or refuses to log in.
    func run() async throws -> OnlineSession.Ending {
        var actions = session.start()
        while true {
            for action in actions {
                if let ending = try perform(action) {
                    connection?.close()
                    return ending
                }
            }
            guard let input = await inputs.next() else { return .left }
            let event: OnlineSession.Event
            switch input {
            case .event(let next): event = next
            case .server(let from, let serverEvent):
                guard from == generation else { continue }
                event = .server(serverEvent)
            case .opened(let new):
                attach(new)
                event = .connected
            }
            actions = session.handle(event, at: .now)
        }
    }

    /// Carries out one action; returns the ending once the session is over.
    private func perform(_ action: OnlineSession.Action) throws -> OnlineSession.Ending? {
        switch action {
        case .connect: connect()
        case .reconnect(let delay):
            let sink = sink
            Task {
                try? await Task.sleep(for: delay)
                sink.yield(.event(.reconnectDue))
            }
        case .send(let request): connection?.send(request)
        case .closeConnection: connection?.close()
        case .askCredentials:
            sink.yield(.event(.credentials(try login.credentials(console: console))))
        case .askToRegister(let name):
            sink.yield(.event(.registerAnswer(login.offerToRegister(name, console: console))))
        case .saveSession(let saved):
            do {
                try login.store?.save(saved, for: address)
            } catch {
                console.say("note: the session was not saved: \(error)")
            }
        case .forgetSavedSession: try? login.store?.remove(for: address)
        case .startInput: startInput()
        case .write(let text): console.write(text)
        case .say(let line): console.say(line)
        case .status(let text): console.status(text)
        case .clearStatus: console.clearStatus()
        case .rewriteLineAbove(let text): console.rewriteLineAbove(text)
        case .finish(let ending): return ending
        case .fail(let message): throw InputError(message)
        }
        return nil
    }

    /// One attempt, made on a task of its own; its outcome comes back as an input.
    private func connect() {
        let sink = sink
        let address = address
        Task {
            do throws(ConnectionError) {
                sink.yield(.opened(try await ServerConnection.connect(to: address)))
            } catch {
                sink.yield(.event(.unreachable(error.reason)))
            }
        }
    }

    private func attach(_ new: ServerConnection) {
        generation += 1
        connection = new
        let generation = generation
        let sink = sink
        Task {
            for await event in new.events { sink.yield(.server(generation: generation, event)) }
        }
    }

    /// Reads standard input a line at a time on a thread of its own, and on a terminal ticks
    /// ten times a second for the clocks.
    private func startInput() {
        let sink = sink
        Thread.detachNewThread {
            while let line = readLine(strippingNewline: true) { sink.yield(.event(.line(line))) }
            sink.yield(.event(.inputEnded))
        }
        guard console.isInteractive else { return }
        Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                sink.yield(.event(.tick))
            }
        }
    }
}
