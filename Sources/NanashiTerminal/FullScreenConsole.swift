import Foundation
import NanashiCore

/// The console of a game played full screen: one board redrawn in place (only the lines that
/// changed), messages on one line, the prompt on the last; keys and clicks read one at a time.
/// It stands in for `StandardConsole` wherever a game is shown, so the games run unchanged.
///
/// Lines may be read on one thread while another shows boards and messages (online): every
/// change of the state and every redraw happens under one lock.
public final class FullScreenConsole: TerminalConsole, @unchecked Sendable {
    public let color: Bool
    private let terminal: RawTerminal
    private let glyphs: BoxGlyphs
    private let lock = NSLock()
    private var state = ScreenState()
    private var shown: Frame?
    private var decoder = KeyDecoder()
    /// Keys read but not taken yet: those after the Enter that ended a line come with the next.
    private var queued: [Key] = []
    private var boardShownAt: ContinuousClock.Instant?
    /// The message line holds a transient status, which the next message replaces.
    private var messageIsStatus = false
    /// How many lines of notes are kept (the help is the longest).
    private static let notesKept = 16
    /// The last lines said, written out again after the full screen.
    private var said: [String] = []
    /// How long a board stays before a move source's reply replaces it (`pace()`).
    private static let pause = Duration.milliseconds(600)

    /// Goes full screen when standard input and output are both a terminal; `nil` otherwise.
    ///
    /// - Parameters:
    ///   - color: color the board (as `StandardConsole.color` says).
    ///   - environment: the locale's variables decide between box-drawing and ASCII lines.
    ///   - title: the top line (what is played).
    public static func open(color: Bool, environment: [String: String], title: String = "nanashi")
        -> FullScreenConsole?
    {
        guard let terminal = RawTerminal.enter() else { return nil }
        return FullScreenConsole(
            terminal: terminal, color: color, glyphs: .forLocale(environment), title: title)
    }

    private init(terminal: RawTerminal, color: Bool, glyphs: BoxGlyphs, title: String) {
        self.terminal = terminal
        self.color = color
        self.glyphs = glyphs
        state.title = title
        redraw()
    }

    /// Gives the terminal back as it was, then writes the last board and the last lines said,
    /// so the end of the game stays in view.
    public func close() {
        let (last, said) = lock.withLock { () -> (ScreenState, [String]) in
            terminal.leave()
            return (state, self.said)
        }
        var text = ""
        if let table = last.table {
            text += BoardRenderer(color: color).render(
                table.game.current, lastMove: table.game.lastMove, flipped: table.flipped,
                labels: table.labels)
            if let clocks = table.clocks { text += " " + clocks + "\n" }
        }
        for line in said { text += line + "\n" }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Changes what is shown, and redraws.
    public func update(_ change: (inout ScreenState) -> Void) {
        lock.withLock {
            change(&state)
            redraw()
        }
    }

    // MARK: TerminalConsole

    /// One line of text is the message line; what it said before joins the notes beside the
    /// board, and longer text goes there whole, until the next line is typed.
    public func write(_ text: String) {
        let lines = text.split(separator: "\n").map(String.init)
        guard !lines.isEmpty else { return }
        lock.withLock { said = (said + lines).suffix(4) }
        update { state in
            if !state.message.isEmpty && !self.messageIsStatus { state.notes.append(state.message) }
            if lines.count > 1 {
                state.notes += lines
                state.message = ""
            } else {
                state.message = lines[0]
            }
            state.notes = state.notes.suffix(Self.notesKept)
            self.messageIsStatus = false
        }
    }

    public func say(_ line: String) {
        write(line)
    }

    /// A transient line (the AI thinking, the time waited): on the message line until the next.
    public func status(_ text: String) {
        update { state in
            state.message = text
            self.messageIsStatus = true
        }
    }

    public func show(_ table: TableView) {
        update { $0.show(table) }
        lock.withLock { boardShownAt = .now }
    }

    public func pace() {
        guard let shownAt = lock.withLock({ boardShownAt }) else { return }
        let left = ContinuousClock.now.duration(to: shownAt.advanced(by: Self.pause))
        if left > .zero { Thread.sleep(forTimeInterval: Double(left / .milliseconds(1)) / 1000) }
    }

    public func ask(_ prompt: String) -> String? {
        update { $0.prompt = prompt }
        let line = readLine()
        update { $0.prompt = "" }
        return line
    }

    /// Reads keys until they make a line (typed, or a square chosen), with the prompt shown now;
    /// `nil` at the end of input. The notes and the message are cleared once the line is sent.
    public func readLine() -> String? {
        while true {
            if let key = lock.withLock({ queued.isEmpty ? nil : queued.removeFirst() }) {
                switch take(key) {
                case .line(let line): return line
                case .ended: return nil
                case .none, .redraw: continue
                }
            }
            let deadline = lock.withLock { decoder.deadline }
            switch terminal.read(until: deadline) {
            case .bytes(let bytes):
                lock.withLock { queued += decoder.feed(bytes, at: .now) }
            case .timedOut:
                lock.withLock { queued += decoder.expire(at: .now) }
            case .resized:
                lock.withLock {
                    shown = nil
                    redraw()
                }
            case .ended:
                return nil
            }
        }
    }

    /// One key taken by the state, and the screen redrawn.
    private func take(_ key: Key) -> ScreenState.KeyResult {
        lock.withLock {
            let result = state.take(key, layout: layout)
            switch result {
            case .line:
                state.notes = []
                state.message = ""
            case .redraw:
                shown = nil
            case .none, .ended:
                break
            }
            redraw()
            return result
        }
    }

    // MARK: Drawing (under the lock)

    private var layout: FullScreenLayout {
        let size = terminal.size
        return FullScreenLayout(width: size.width, height: size.height, glyphs: glyphs, color: color)
    }

    private func redraw() {
        if terminal.takeResize() { shown = nil }
        let frame = layout.frame(state)
        terminal.write(frame.update(from: shown))
        shown = frame
    }
}
