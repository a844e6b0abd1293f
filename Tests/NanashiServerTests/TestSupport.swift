// The in-process server and its line client (TestServer, TestClient, TemporaryDatabase) live in
// the shared test support; re-exported here so every file of these tests has them.
@_exported import NanashiServerTestSupport
