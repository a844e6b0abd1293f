import NanashiClient
import Testing

@Test(arguments: [
    ("127.0.0.1:7878", "127.0.0.1", 7878), ("example.org:9000", "example.org", 9000),
    ("example.org", "example.org", 7878), ("[::1]:7000", "::1", 7000), ("[::1]", "::1", 7878),
    (" localhost:1 ", "localhost", 1),
])
func addressesReadAsHostAndPort(text: String, host: String, port: Int) throws {
    #expect(try ServerAddress(parsing: text) == ServerAddress(host: host, port: port))
}

@Test(arguments: [
    ("", ServerAddressError.empty), (":7878", .badHost(":7878")), ("host:0", .badPort("0")),
    ("host:65536", .badPort("65536")), ("host:port", .badPort("port")), ("::1", .badHost("::1")),
    ("[::1", .badHost("[::1")), ("a b:1", .badHost("a b:1")),
])
func badAddressesAreRefused(text: String, error: ServerAddressError) {
    #expect(throws: error) { try ServerAddress(parsing: text) }
}

@Test func addressesAreWrittenAsTheyAreRead() {
    #expect(ServerAddress.local.description == "127.0.0.1:7878")
    #expect(ServerAddress(host: "::1", port: 7000).description == "[::1]:7000")
}

@Test(arguments: [
    ("127.0.0.1", true), ("127.1.2.3", true), ("LocalHost", true), ("[::1]:7000", true),
    ("10.0.0.2", false), ("example.org", false), ("127.example.org", false),
])
func loopbackHostsAreKnown(text: String, loopback: Bool) throws {
    #expect(try ServerAddress(parsing: text).isLoopback == loopback)
}

@Test(arguments: [
    ("tls://example.org:7000", ServerAddress(host: "example.org", port: 7000, tls: true), false),
    ("TLS://[::1]", ServerAddress(host: "::1", port: 7878, tls: true), false),
    ("tcp://10.0.0.2:7000", ServerAddress(host: "10.0.0.2", port: 7000), true),
    ("10.0.0.2", ServerAddress(host: "10.0.0.2", port: 7878), true),
    ("127.0.0.1:7000", ServerAddress(host: "127.0.0.1", port: 7000), false),
])
func aSchemeChoosesTLSAndOnlyPlainTCPToAnotherMachineIsClearText(
    text: String, address: ServerAddress, clearText: Bool
) throws {
    let read = try ServerAddress(parsing: text)
    #expect(read == address)
    #expect(read.sendsInClearText == clearText)
    #expect(try ServerAddress(parsing: read.description) == read)
}

@Test func aTLSAddressIsWrittenWithItsScheme() {
    #expect(ServerAddress(host: "example.org", port: 7000, tls: true).description == "tls://example.org:7000")
    #expect(ServerAddress(host: "::1", port: 7000, tls: true).description == "tls://[::1]:7000")
}
