import Foundation
import NanashiCore
import NanashiTestSupport
import NanashiTuning
import Testing

@Suite(.blocking) struct DatagenCommandTests {
    /// A fresh path in the temporary folder, removed with its journal at the end.
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("datagen-\(UUID().uuidString).bin").path
    }

    @Test func binaryRecordsAreWrittenOnceAndTheRunResumes() throws {
        let path = Self.temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".games")
        }
        let arguments = [
            "datagen", "--games", "3", "--out", path, "--format", "binary", "--nodes", "200",
            "--every-position",
            "--seed", "4",
        ]
        let first = try NanashiProcess.run(arguments)
        #expect(first.status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(!bytes.isEmpty && bytes.count % PackedSample.size == 0)
        let records = try stride(from: 0, to: bytes.count, by: PackedSample.size).map {
            try PackedSample(bytes: bytes[$0..<$0 + PackedSample.size])
        }
        #expect(Set(records.map { $0.position.fen }).count == records.count)
        #expect(records.allSatisfy { !$0.position.isGameOver && abs($0.score) < 29_000 })
        // Every game's journal line is written; a second run finds nothing left to play.
        let journal = try String(contentsOfFile: path + ".games", encoding: .utf8)
        #expect(Set(journal.split(separator: "\n")) == ["4 0", "4 1", "4 2"])
        let second = try NanashiProcess.run(arguments)
        #expect(second.status == 0)
        #expect(second.stderr.hasPrefix("resuming: 3 games done, \(records.count) positions in \(path)\n"))
        #expect(FileManager.default.contents(atPath: path) == bytes)
    }

    @Test func badOptionsAndBrokenFilesAreOneLineAndExitCodeTwo() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let hard = try NanashiProcess.run([
            "datagen", "--games", "1", "--out", path, "--nodes", "500", "--hard-nodes", "400",
        ])
        #expect(hard.status == 2)
        #expect(hard.stderr == "nanashi: bad hard nodes 400: use at least --nodes (500)\n")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let broken = try NanashiProcess.run(["datagen", "--games", "1", "--out", path, "--format", "binary"])
        #expect(broken.status == 2)
        #expect(broken.stderr == "nanashi: \(path): 3 bytes is not a whole number of 16-byte records\n")
        #expect(FileManager.default.contents(atPath: path) == Data([1, 2, 3]))
    }
}
