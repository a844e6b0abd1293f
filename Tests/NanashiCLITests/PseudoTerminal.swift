import Foundation
import NanashiSubprocess
import NanashiTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `nanashi` run on a pseudo-terminal, as a person at a terminal runs it: standard input, output
/// and error are the terminal's other end, of 80 x 24 cells. The test types through `type(_:)`
/// and reads all the program wrote (escape sequences included).
final class PseudoTerminal: @unchecked Sendable {
    let process: Subprocess
    private let controller: Int32
    private let device: Int32
    private let reader: Thread
    /// The terminal's modes before the program started, to compare with what it leaves.
    let initialModes: termios

    /// - Parameter environment: added to the test's own, without its `NO_COLOR`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        var controller: Int32 = 0
        var device: Int32 = 0
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&controller, &device, nil, nil, &size) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        self.controller = controller
        self.device = device
        var initial = termios()
        tcgetattr(device, &initial)
        initialModes = initial
        let box = ReadBox()
        let source = controller
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                box.append(buffer[0..<count])
            }
        }
        readBox = box
        self.reader = reader
        reader.start()
        var inherited = ProcessInfo.processInfo.environment
        inherited["NO_COLOR"] = nil
        process = try Subprocess(
            NanashiExecutable.url.path, arguments: arguments,
            environment: inherited.merging(environment) { $1 },
            stdin: device, stdout: device, stderr: device)
    }

    private var readBox: ReadBox!

    /// The terminal's modes now, as the program left them (or set them).
    var modes: termios {
        var modes = termios()
        tcgetattr(device, &modes)
        return modes
    }

    /// Everything the program wrote so far.
    var output: String { String(decoding: readBox.bytes, as: UTF8.self) }

    /// Sends `text` as typed keys.
    func type(_ text: String) {
        let data = Array(text.utf8)
        _ = data.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }

    /// Waits (up to 20 s) until the output holds `text` after what was there at `offset`
    /// characters; returns whether it came.
    @discardableResult
    func waitFor(_ text: String, after offset: Int = 0) -> Bool {
        let end = Date().addingTimeInterval(20)
        while Date() < end {
            if output.dropFirst(offset).contains(text) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// Waits (up to 20 s) for the program to end; returns its exit status, or -1 when it had to
    /// be stopped.
    func finish() -> Int32 {
        let end = Date().addingTimeInterval(20)
        while process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            process.send(SIGTERM)
            process.wait()
            return -1
        }
        // Let the reader take the last bytes.
        Thread.sleep(forTimeInterval: 0.1)
        return process.wait().shellStatus
    }

    // The child, if it still runs, is killed as `process` goes.
    deinit {
        close(device)
        close(controller)
    }
}

private final class ReadBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data: [UInt8] = []

    func append(_ chunk: ArraySlice<UInt8>) { lock.withLock { data += chunk } }
    var bytes: [UInt8] { lock.withLock { data } }
}

/// The modes that matter to a person typing, compared field by field.
func sameModes(_ a: termios, _ b: termios) -> Bool {
    var a = a
    var b = b
    return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag
        && a.c_lflag == b.c_lflag
        && memcmp(&a.c_cc, &b.c_cc, MemoryLayout.size(ofValue: a.c_cc)) == 0
}
