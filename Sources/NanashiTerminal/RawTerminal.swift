import NanashiCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// The terminal in full-screen mode, the full screen's one file of termios and signals: keys arrive
/// one by one unechoed, the alternate screen is shown, mouse clicks are reported (xterm's SGR mode).
///
/// `leave()` gives the terminal back exactly as it was: the saved modes, the main screen, the
/// mouse off, the cursor shown. So does a signal that ends the program (Ctrl-C, a hang-up, kill),
/// through a handler that only makes async-signal-safe calls, and so does a crash (before the
/// crash's own ending). A window resize is noted by a handler too, and `read(until:)` reports it.
public final class RawTerminal: @unchecked Sendable {
    /// What `read(until:)` found.
    public enum Input: Equatable, Sendable {
        case bytes([UInt8])
        /// The window changed size: query `size` and draw everything again.
        case resized
        /// The deadline passed first.
        case timedOut
        /// Standard input ended or failed.
        case ended
    }

    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?1000h\u{1B}[?1006h"
    private var previousHandlers: [Int32: sighandler_t?] = [:]
    private var left = false

    /// Enters full-screen mode when standard input and output are both a terminal; `nil` otherwise.
    public static func enter() -> RawTerminal? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(pipeEnds[1], F_SETFL, fcntl(pipeEnds[1], F_GETFL) | O_NONBLOCK)
        savedModes = saved
        resizeReader = pipeEnds[0]
        resizeWriter = pipeEnds[1]
        let terminal = RawTerminal()
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            terminal.previousHandlers[number] = signal(number, restoreAndExit)
        }
        for number in [SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE] {
            terminal.previousHandlers[number] = signal(number, restoreAndCrash)
        }
        terminal.previousHandlers[SIGWINCH] = signal(SIGWINCH, noteResize)
        // A parent may have left them blocked; they must reach the handlers.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        var raw = saved
        // No line editing or echo: each key as it is typed. Ctrl-C still raises SIGINT.
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        restoreOnSignal = true
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        terminal.write(enterSequence)
        return terminal
    }

    private init() {}

    /// Gives the terminal back as it was before `enter()`; later calls do nothing.
    public func leave() {
        guard !left else { return }
        left = true
        restoreOnSignal = false
        leaveSequence.withUTF8Buffer { _ = systemWrite(STDOUT_FILENO, $0.baseAddress, $0.count) }
        tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
        for (number, handler) in previousHandlers { signal(number, handler) }
    }

    /// The window's size in cells, 80 x 24 when the terminal does not say.
    public var size: (width: Int, height: Int) {
        var window = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0
        else {
            return (80, 24)
        }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Writes `text` as it is.
    public func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                systemWrite(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Whether the window was resized since the last call (or `read` reported it).
    public func takeResize() -> Bool {
        var drained = false
        var byte: UInt8 = 0
        while systemRead(resizeReader, &byte, 1) == 1 { drained = true }
        return drained
    }

    /// Waits for keys, a resize, or `deadline` (forever when `nil`).
    public func read(until deadline: ContinuousClock.Instant?) -> Input {
        while true {
            if takeResize() { return .resized }
            var timeout: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                timeout = Int32(min(left.wholeMilliseconds + 1, 60_000))
            }
            var watched = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: resizeReader, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&watched, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return .ended
            }
            if ready == 0 { continue }
            if watched[1].revents != 0 { continue }
            guard watched[0].revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { systemRead(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .ended }
            return .bytes(Array(buffer[0..<count]))
        }
    }
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}

private let leaveSequence: StaticString = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
/// The modes to give back, read by the signal handler.
nonisolated(unsafe) private var savedModes = termios()
nonisolated(unsafe) private var restoreOnSignal = false
nonisolated(unsafe) private var resizeReader: Int32 = -1
nonisolated(unsafe) private var resizeWriter: Int32 = -1

/// Ends the program on a signal, the terminal given back first: only tcsetattr(3), write(2) and
/// _exit(2) here. The exit code is the shell's for a signal (130 for Ctrl-C).
private func restoreAndExit(_ signal: Int32) {
    if restoreOnSignal {
        leaveSequence.withUTF8Buffer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
    }
    _exit(128 + signal)
}

/// A crash (a trap, a bad access): the terminal given back, then the signal's own ending.
private func restoreAndCrash(_ number: Int32) {
    if restoreOnSignal {
        leaveSequence.withUTF8Buffer { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        tcsetattr(STDIN_FILENO, TCSANOW, &savedModes)
    }
    signal(number, SIG_DFL)
    raise(number)
}

/// Notes a resize for `read(until:)` with one byte down a pipe (write(2) is async-signal-safe).
private func noteResize(_ signal: Int32) {
    var byte: UInt8 = 1
    _ = write(resizeWriter, &byte, 1)
}
