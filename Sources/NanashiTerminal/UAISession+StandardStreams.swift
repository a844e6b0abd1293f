import Foundation
import NanashiAI

extension UAISession {
    /// Speaks UAI on standard input and output until `quit` or the end of input, starting with
    /// `evaluation`, as `nanashi uai` does.
    public static func serveStandardStreams(evaluation: EvaluationKind) async {
        // Each line goes out in one unbuffered write. Not print with fflush(nil): flushing every
        // stream takes the lock of standard input, which readLine holds while it waits, so the
        // search task would block until the next line came in.
        let session = UAISession(
            evaluation: evaluation,
            output: { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            })
        await session.serve { readLine() }
    }
}
