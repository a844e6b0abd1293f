import Foundation
import NanashiAI
import NanashiCore
import NanashiSubprocess

/// An external engine speaking UAI through pipes, started with `/bin/sh -c COMMAND`.
///
/// An engine that dies makes the match throw, never kill it: writing to its closed pipe fails
/// instead of raising SIGPIPE (which `Subprocess` has the whole process ignore).
final class UAIPlayer: Player {
    private(set) var name: String
    private let process: Subprocess
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(command: String) throws {
        do {
            process = try Subprocess(
                "/bin/sh", arguments: ["-c", command], environment: ProcessInfo.processInfo.environment,
                stdin: input.fileHandleForReading.fileDescriptor,
                stdout: output.fileHandleForWriting.fileDescriptor, stderr: Subprocess.nullDevice)
        } catch {
            throw MatchError("cannot start engine '\(command)': \(error)")
        }
        // The engine's ends: its output ends when it does.
        try? input.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        name = command
        send("uai")
        while let line = readLine(), line != "uaiok" {
            if line.hasPrefix("id name ") { name = String(line.dropFirst("id name ".count)) }
        }
        send("isready")
        try waitFor("readyok")
    }

    func newGame() throws {
        send("uainewgame")
        send("isready")
        try waitFor("readyok")
    }

    func move(start: Position, moves: [Move], position: Position, limits: SearchLimits) throws -> Move {
        let moveText = moves.isEmpty ? "" : " moves " + moves.map(\.description).joined(separator: " ")
        send("position fen \(start.fen)\(moveText)")
        send(Self.goCommand(limits: limits, sideToMove: position.sideToMove))
        while let line = readLine() {
            // Our engines refuse a request they cannot serve with this line and no bestmove:
            // waiting on would hang the match.
            if line.hasPrefix("info string error ") {
                throw MatchError(
                    "\(name) refused '\(Self.goCommand(limits: limits, sideToMove: position.sideToMove))': \(line)"
                )
            }
            if line.hasPrefix("bestmove ") {
                let text = line.dropFirst("bestmove ".count).split(separator: " ").first ?? ""
                do {
                    return try Move(notation: text)
                } catch {
                    throw MatchError("\(name) answered '\(line)': \(error)")
                }
            }
        }
        throw MatchError("\(name) stopped before answering")
    }

    /// The `go` line for `limits`; UAI's `btime`/`binc` are x's clock, `wtime`/`winc` o's.
    /// Without any limit the engine gets a second.
    static func goCommand(limits: SearchLimits, sideToMove: Side) -> String {
        var go = "go"
        if let depth = limits.depth { go += " depth \(depth)" }
        if let nodes = limits.nodes { go += " nodes \(nodes)" }
        if let movetime = limits.movetime { go += " movetime \(movetime.wholeMilliseconds)" }
        if let clock = limits.clock {
            let xIsToMove = sideToMove == .x
            let (xTime, oTime) = xIsToMove ? (clock.own, clock.opponent) : (clock.opponent, clock.own)
            let (xIncrement, oIncrement) =
                xIsToMove
                ? (clock.ownIncrement, clock.opponentIncrement)
                : (clock.opponentIncrement, clock.ownIncrement)
            go +=
                " wtime \(oTime.wholeMilliseconds) btime \(xTime.wholeMilliseconds)"
                + " winc \(oIncrement.wholeMilliseconds) binc \(xIncrement.wholeMilliseconds)"
        }
        return go == "go" ? "go movetime 1000" : go
    }

    func close() {
        send("quit")
        try? input.fileHandleForWriting.close()
        process.wait()
    }

    private func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    private func waitFor(_ expected: String) throws {
        while let line = readLine() {
            if line == expected { return }
        }
        throw MatchError("\(name) stopped before '\(expected)'")
    }

    /// The next line from the engine, or `nil` when it has closed its output.
    private func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let count = Self.read(output.fileHandleForReading.fileDescriptor, into: &chunk), count > 0
            else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Room for what one read brings.
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// The bytes read into `bytes` (0 at the end), or `nil` on an error. A read interrupted by a
    /// signal is tried again: Foundation's `availableData` stops the program instead ("Interrupted
    /// system call"), as it did once in a test run that started many processes.
    private static func read(_ descriptor: Int32, into bytes: inout [UInt8]) -> Int? {
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return count }
            if errno != EINTR { return nil }
        }
    }
}
