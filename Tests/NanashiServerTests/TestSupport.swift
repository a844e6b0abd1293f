import NanashiProtocol
// The in-process server and its line client (TestServer, TestClient, TemporaryDatabase) live in
// the shared test support; re-exported here so every file of these tests has them.
@_exported import NanashiServerTestSupport

/// A ping whose reply echoes the longest id a request may carry: many of them make megabytes of
/// replies for a client that does not read.
let longestPing = Array(
    #"{"type":"ping","id":"\#(String(repeating: "z", count: RequestID.longestText))"}"#.utf8 + [10])

/// Waits until `name` is a player of `server`'s (a registration sent after other lines is read
/// once they were): asked with `profile` from another address, at most 500 times, 20 ms apart.
func waitForPlayer(_ name: String, on server: TestServer) async throws {
    let asker = try server.client(from: "127.0.0.9")
    for _ in 0..<500 {
        if try await !asker.exchange(#"{"type":"profile","name":"\#(name)"}"#).contains("no_such_player") {
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw TestClient.Failure(description: "\(name) was never registered")
}
