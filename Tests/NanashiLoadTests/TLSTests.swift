import Foundation
import NanashiClient
import NanashiProtocol
import NanashiRuntime
import NanashiServer
import NanashiServerTestSupport
import NanashiSubprocess
import NanashiTestSupport
import Testing

@testable import NanashiLoad

/// A self-signed certificate for 127.0.0.1 and its key, made by `openssl` for one test.
private struct TestCertificate {
    let directory: URL
    var certificate: String { directory.appendingPathComponent("cert.pem").path }
    var key: String { directory.appendingPathComponent("key.pem").path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nanashi-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let openssl = try Subprocess(
            "/usr/bin/env",
            arguments: [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-keyout", directory.appendingPathComponent("key.pem").path,
                "-out", directory.appendingPathComponent("cert.pem").path,
                "-days", "2", "-subj", "/CN=localhost", "-addext",
                "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ],
            environment: ProcessInfo.processInfo.environment, stdin: Subprocess.nullDevice,
            stdout: Subprocess.nullDevice, stderr: Subprocess.nullDevice)
        try #require(openssl.wait() == .exited(0), "openssl could not make a certificate")
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

/// A TLS server on a free port (the shared test server, with the certificate).
private func startTLSServer(_ certificate: TestCertificate) async throws -> TestServer {
    try await TestServer {
        $0.tls = TLSFiles(certificateChain: certificate.certificate, privateKey: certificate.key)
    }
}

@Test(.blocking) func aWholeGameIsPlayedOverTLS() async throws {
    let certificate = try TestCertificate()
    defer { certificate.remove() }
    let server = try await startTLSServer(certificate)
    let servers = ServerList(
        ServerAddress(
            host: "127.0.0.1", port: server.port, tls: true, trustedCertificates: certificate.certificate))
    var settings = LoadTestSettings(servers: servers)
    settings.clients = 2
    settings.games = 1
    settings.duration = .seconds(60)
    settings.policy = BotPolicy(resignChance: 0, dropChance: 0)
    let (report, registered) = try await LoadTest.run(settings)
    #expect(report.gamesCompleted == 1 && report.gamesUnfinished == 0)
    #expect(report.errors == [:])
    #expect(report.moves > 0 && registered.count == 2)

    // The same over TLS for the queries.
    var queries = QueryTestSettings(servers: servers)
    queries.queries = 2
    #expect(try await QueryTest.run(queries).rankedPlayers == 2)
    await server.stop()
}

@Test(.blocking) func plainTextAndUntrustedClientsAreRefusedOnTheTLSPort() async throws {
    let certificate = try TestCertificate()
    defer { certificate.remove() }
    let server = try await startTLSServer(certificate)
    var address = ServerAddress(host: "127.0.0.1", port: server.port)
    var queries = QueryTestSettings(servers: ServerList(address))
    queries.queries = 1
    // Plain text: the server reads no line, and closes the connection.
    await #expect(throws: (any Error).self) { try await QueryTest.run(queries) }
    // TLS, trusting only the system's store: a self-signed certificate is refused.
    address.tls = true
    queries.servers = ServerList(address)
    await #expect(throws: (any Error).self) { try await QueryTest.run(queries) }
    // A certificate file that does not exist is an error at once.
    address.trustedCertificates = "/nonexistent/ca.pem"
    queries.servers = ServerList(address)
    await #expect(throws: (any Error).self) { try await QueryTest.run(queries) }
    await server.stop()
}

/// What `openssl s_client` says of a handshake with the server at `port` that offers only
/// `version` (`-tls1_1`, `-tls1_2`): whether it got a session.
private func handshakes(port: Int, _ version: String) throws -> Bool {
    let output = Pipe()
    let client = try Subprocess(
        "/usr/bin/env",
        arguments: [
            "openssl", "s_client", "-connect", "127.0.0.1:\(port)", version, "-cipher", "DEFAULT@SECLEVEL=0",
            "-brief",
        ],
        environment: ProcessInfo.processInfo.environment, stdin: Subprocess.nullDevice,
        stdout: output.fileHandleForWriting.fileDescriptor, stderr: output.fileHandleForWriting.fileDescriptor
    )
    try output.fileHandleForWriting.close()
    let text = String(decoding: output.fileHandleForReading.restUntilEnd(), as: UTF8.self)
    client.wait()
    return text.contains("CONNECTION ESTABLISHED")
}

@Test(.blocking) func tlsBelowOnePointTwoIsRefused() async throws {
    let certificate = try TestCertificate()
    defer { certificate.remove() }
    let server = try await startTLSServer(certificate)
    let port = server.port
    let (old, current) = try await Task.detached {
        (try handshakes(port: port, "-tls1_1"), try handshakes(port: port, "-tls1_2"))
    }.value
    #expect(!old && current)
    await server.stop()
}

/// A private key its group or others may read is refused at start, naming the file and the fix;
/// once private (0600), the same files serve.
@Test func aKeyOthersMayReadStopsTheServerFromStarting() async throws {
    let certificate = try TestCertificate()
    defer { certificate.remove() }
    for mode in [0o640, 0o604, 0o644] {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: certificate.key)
        let error = await #expect(throws: TLSFilesError.self) { try await startTLSServer(certificate) }
        #expect(
            error?.description
                == "\(certificate.key): readable by group or others (mode \(String(mode, radix: 8))): make it private (chmod 600) and start again"
        )
    }
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificate.key)
    let server = try await startTLSServer(certificate)
    await server.stop()
}
