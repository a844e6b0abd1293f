import Foundation
import NanashiClient
import Testing

@Test(arguments: [
    (["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/ann"], "/cfg/nanashi"),
    (["XDG_CONFIG_HOME": "/cfg/", "HOME": "/home/ann"], "/cfg/nanashi"),
    (["XDG_CONFIG_HOME": "relative", "HOME": "/home/ann"], "/home/ann/.config/nanashi"),
    (["XDG_CONFIG_HOME": "", "HOME": "/home/ann/"], "/home/ann/.config/nanashi"),
    (["HOME": "/home/ann"], "/home/ann/.config/nanashi"),
])
func sessionsGoInTheConfigurationFolder(environment: [String: String], folder: String) {
    #expect(TokenStore.directory(environment: environment) == folder)
    #expect(TokenStore.standard(environment: environment)?.path == folder + "/sessions.json")
}

@Test func withoutAHomeThereIsNoStore() {
    #expect(TokenStore.standard(environment: [:]) == nil)
}

@Test func tokensAreKeptPerServerInAPrivateFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = TokenStore(path: folder.path + "/nanashi/sessions.json")
    let local = ServerAddress.local
    let remote = ServerAddress(host: "example.org", port: 9000)
    #expect(store.session(for: local) == nil)

    try store.save(.init(name: "ann", token: "t1"), for: local)
    try store.save(.init(name: "bob", token: "t2"), for: remote)
    try store.save(.init(name: "ann", token: "t3"), for: local)
    #expect(store.session(for: local) == .init(name: "ann", token: "t3"))
    #expect(store.session(for: remote) == .init(name: "bob", token: "t2"))

    let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/nanashi")
    #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
    // Only the final file is left: the temporary one was renamed over it.
    #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path + "/nanashi") == ["sessions.json"])
    #expect(
        try String(contentsOfFile: store.path, encoding: .utf8) == """
            {
              "servers" : {
                "127.0.0.1:7878" : {
                  "name" : "ann",
                  "token" : "t3"
                },
                "example.org:9000" : {
                  "name" : "bob",
                  "token" : "t2"
                }
              }
            }
            """)

    try store.remove(for: local)
    #expect(store.session(for: local) == nil)
    #expect(store.session(for: remote) == .init(name: "bob", token: "t2"))
}

@Test func aDamagedFileCountsAsNoSessionAndIsReplaced() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nanashi-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = TokenStore(path: folder.path + "/sessions.json")
    try "{not json".write(toFile: store.path, atomically: true, encoding: .utf8)
    #expect(store.session(for: .local) == nil)
    try store.save(.init(name: "ann", token: "t"), for: .local)
    #expect(store.session(for: .local) == .init(name: "ann", token: "t"))
}
