import Foundation
import NanashiTestSupport
import Testing

/// `nanashi tune --spsa` and the files it writes, read back by `nanashi uai --parameters`.
@Suite(.blocking) struct TuneCommandTests {
    @Test func anSPSARunSavesEachPairResumesAndItsValuesPlay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (state, values) = (
            folder.appendingPathComponent("run.json").path, folder.appendingPathComponent("v.txt").path
        )
        let arguments = [
            "tune", "--spsa", "--iterations", "2", "--nodes", "200", "--seed", "5", "--state", state,
            "--values", values,
        ]
        let first = try NanashiProcess.run(arguments)
        #expect(first.status == 0)
        #expect(first.stderr == "")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.first == "new run: \(state)")
        #expect(lines[1].hasPrefix("iteration 1/2: "))
        #expect(lines[2].hasPrefix("iteration 2/2: "))
        #expect(lines[3].hasPrefix("  AspirationWindow="))
        #expect(lines.last?.hasPrefix("done: 2 iterations, balance ") == true)
        let written = try String(contentsOfFile: values, encoding: .utf8)
        #expect(written.hasPrefix("# nanashi tune --spsa: 2 of 2 iterations\nAspirationWindow="))

        let again = try NanashiProcess.run(arguments)
        #expect(again.stdout.hasPrefix("resuming \(state): 2 of 2 done\ndone: 2 iterations"))

        let uai = try NanashiProcess.run(["uai", "--parameters", values], input: "go depth 3\nquit\n")
        #expect(uai.status == 0)
        #expect(uai.stdout.contains("bestmove "))
    }

    @Test func badParametersAndOptionsAreOneLineAndExitCodeTwo() throws {
        let missing = try NanashiProcess.run(["uai", "--parameters", "/nonexistent/p.txt"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "nanashi: cannot read parameters file '/nonexistent/p.txt'\n")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("p-\(UUID().uuidString).txt")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "FutilityBase=60\nLateMoveFactor=9\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try NanashiProcess.run(["uai", "--parameters", path], input: "quit\n")
        #expect(bad.status == 2)
        #expect(bad.stderr == "nanashi: \(path): line 2: 'LateMoveFactor' must be from 1 to 6\n")
        let both = try NanashiProcess.run(["tune", "--spsa", "positions.txt"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("give either FILE or --spsa, not both"))
        let zero = try NanashiProcess.run(["tune", "--spsa", "--nodes", "0", "--state", path + ".json"])
        #expect(zero.status == 2)
        #expect(zero.stderr == "nanashi: bad nodes 0: use 1 or more\n")
        let rate = try NanashiProcess.run(["tune", "--spsa", "--rate", "0", "--state", path + ".json"])
        #expect(rate.status == 2)
        #expect(rate.stderr == "nanashi: --rate must be above 0 and at most 1, not 0.0\n")
        #expect(!FileManager.default.fileExists(atPath: path + ".json"))
    }
}
