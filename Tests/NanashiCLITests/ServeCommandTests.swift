import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// `nanashi serve` and `nanashi leaderboard --db` through the real executable: a server on an
// OS-assigned port, two players over a socket, then the operator's view of the database file.

/// Runs `nanashi` to its end: (stdout, stderr, exit status).
private func runNanashi(_ arguments: [String]) throws -> (String, String, Int32) {
    let result = try NanashiProcess.run(arguments)
    return (result.stdout, result.stderr, result.status)
}

/// A blocking line client over a TCP socket to 127.0.0.1.
private final class LineSocket {
    private let socket: Int32
    private var pending: [UInt8] = []

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(status == 0)
    }

    deinit { Glibc.close(socket) }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func line() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            try #require(count > 0, "the server closed the connection or did not answer")
            pending += chunk[..<count]
        }
    }

    func exchange(_ line: String) throws -> String {
        send(line)
        return try self.line()
    }
}

private func field(_ name: String, in line: String) -> String? {
    guard let range = line.range(of: "\"\(name)\":") else { return nil }
    return String(line[range.upperBound...].prefix { $0 != "," && $0 != "}" }).replacingOccurrences(
        of: "\"", with: "")
}

@Test func servedGamesShowInTheOperatorsLeaderboard() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "nanashi-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("server.sqlite").path

    let server = Process()
    server.executableURL = NanashiProcess.executable
    server.arguments = [
        "serve", "--port", "0", "--db", database, "--log-level", "error", "--insecure-scrypt-log2n", "4",
    ]
    let output = Pipe()
    server.standardOutput = output
    try server.run()
    defer {
        server.terminate()
        server.waitUntilExit()
    }
    var banner = Data()
    while !banner.contains(UInt8(ascii: "\n")) {
        let chunk = output.fileHandleForReading.availableData
        try #require(!chunk.isEmpty, "the server exited before listening")
        banner += chunk
    }
    let listening = String(decoding: banner, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(listening.hasPrefix("listening on 127.0.0.1:"))
    let port = try #require(Int(listening.split(separator: ":").last ?? ""))

    let ann = try LineSocket(port: port)
    let bob = try LineSocket(port: port)
    #expect(
        try ann.exchange(#"{"type":"register","name":"ann","password":"password1"}"#).contains(
            #""type":"welcome""#))
    #expect(
        try bob.exchange(#"{"type":"register","name":"bob","password":"password1"}"#).contains(
            #""type":"welcome""#))
    #expect(try ann.exchange(#"{"type":"seek","initial":60,"increment":1}"#) == #"{"type":"seeking"}"#)
    #expect(try bob.exchange(#"{"type":"seek","initial":60,"increment":1}"#) == #"{"type":"seeking"}"#)
    let annStart = try ann.line()
    _ = try bob.line()
    let game = try #require(field("game", in: annStart))
    let annColor = try #require(field("color", in: annStart))
    // o resigns, so x wins.
    let resigner = annColor == "o" ? ann : bob
    let winner = annColor == "x" ? "ann" : "bob"
    let loser = winner == "ann" ? "bob" : "ann"
    #expect(try resigner.exchange(#"{"type":"resign","game":\#(game)}"#).contains(#""reason":"resign""#))

    let (table, _, status) = try runNanashi(["leaderboard", "--db", database])
    #expect(status == 0)
    #expect(
        table == """
                #  name                  rating         games    won   lost   drawn
                1  \(winner)                   1662 ± 290 ?       1      1      0       0
                2  \(loser)                   1338 ± 290 ?       1      0      1       0
            1-2 of 2 rated players; ? = provisional

            """)
    let (json, _, _) = try runNanashi([
        "leaderboard", "--db", database, "--top", "1", "--offset", "1", "--json",
    ])
    #expect(
        json
            == #"{"entries":[{"draws":0,"games":1,"losses":1,"name":"\#(loser)","provisional":true,"rank":2,"#
            + #""rating":1338,"rd":290,"wins":0}],"total":2}"# + "\n")
}

@Test(arguments: [
    (
        ["leaderboard", "--db", "/nonexistent/nanashi.sqlite"],
        "nanashi: no database file at /nonexistent/nanashi.sqlite\n"
    ),
    (["leaderboard", "--db", "x.sqlite", "--top", "101"], "nanashi: bad --top 101: use 1 to 100\n"),
    (["serve", "--port", "70000"], "nanashi: bad port 70000: use 0 to 65535\n"),
])
func badServerCommandsFailWithOneLine(arguments: [String], message: String) throws {
    let (output, error, status) = try runNanashi(arguments)
    #expect(status == 2 && output.isEmpty && error == message)
}
