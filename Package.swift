// swift-tools-version:6.1
import PackageDescription

/// The rules core, the search and the tuner count bits on every node. On x86-64 the compiler only
/// uses the processor's population-count instruction when told the processor has it; every x86-64
/// processor since 2008 (Nehalem, x86-64-v2) does.
let bitCountingSettings: [SwiftSetting] = {
    #if arch(x86_64)
        [.unsafeFlags(["-target-cpu", "nehalem"])]
    #else
        []
    #endif
}()

/// SwiftNIO's modules, by name.
func nio(_ modules: String...) -> [Target.Dependency] {
    modules.map { .product(name: $0, package: "swift-nio") }
}

let nioSSL = Target.Dependency.product(name: "NIOSSL", package: "swift-nio-ssl")
let grdb = Target.Dependency.product(name: "GRDB", package: "GRDB.swift")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let postgres = Target.Dependency.product(name: "PostgresNIO", package: "postgres-nio")

let package = Package(
    name: "Nanashi",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "nanashi", targets: ["nanashi"]),
        .library(name: "NanashiCore", targets: ["NanashiCore"]),
        .library(name: "NanashiAI", targets: ["NanashiAI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // MARK: Core — the rules of the game. Swift standard library only.
        .target(name: "NanashiCore", path: "Sources/NanashiCore", swiftSettings: bitCountingSettings),
        .testTarget(
            name: "NanashiCoreTests", dependencies: ["NanashiCore", "NanashiTestSupport"],
            path: "Tests/NanashiCoreTests"),

        // MARK: Subprocess — programs started with posix_spawn and waited for with waitpid (engines
        // in a match, the executable and its tools in tests), not Foundation's Process.
        .target(name: "NanashiSubprocess", path: "Sources/NanashiSubprocess"),
        .testTarget(
            name: "NanashiSubprocessTests", dependencies: ["NanashiSubprocess"],
            path: "Tests/NanashiSubprocessTests"),

        // MARK: AI — search, evaluation, UAI. Core only (and a little C: the table's memory, the move order).
        .target(
            name: "NanashiAI", dependencies: ["NanashiCore", "CSearchMemory", "CNetwork"],
            path: "AI/NanashiAI",
            swiftSettings: bitCountingSettings),
        // The transposition table's memory (huge pages, prefetching) and the move order's vector step,
        // which Swift does not reach.
        .target(name: "CSearchMemory", path: "AI/CSearchMemory"),
        // The network's vector kernels, and the trained network itself (`Resources/network-<hash>.nnue`),
        // compiled in by C's `#embed`: `.embedInCode` would make a Swift array literal of it, which
        // the Swift compiler cannot type-check at 4.7 MB.
        .target(
            name: "CNetwork", path: "AI/CNetwork", exclude: ["Resources"],
            cSettings: [.unsafeFlags(["-O3"])]),
        .testTarget(
            name: "NanashiAITests",
            dependencies: ["NanashiAI", "NanashiCore", "CSearchMemory", "NanashiTestSupport"],
            path: "Tests/NanashiAITests"),

        // MARK: Match — engines against engines: UAI over pipes, a referee on the core's GameClock, Elo, SPRT.
        .target(
            name: "NanashiMatch", dependencies: ["NanashiCore", "NanashiAI", "NanashiSubprocess"],
            path: "AI/NanashiMatch"),
        .testTarget(
            name: "NanashiMatchTests", dependencies: ["NanashiMatch", "NanashiAI", "NanashiCore"],
            path: "Tests/NanashiMatchTests"),

        // MARK: Tuning — self-play positions and the Texel tuner of the evaluation's weights.
        .target(
            name: "NanashiTuning", dependencies: ["NanashiCore", "NanashiAI", "NanashiMatch"],
            path: "AI/NanashiTuning", swiftSettings: bitCountingSettings),
        .testTarget(
            name: "NanashiTuningTests",
            dependencies: ["NanashiTuning", "NanashiAI", "NanashiCore", "NanashiTestSupport"],
            path: "Tests/NanashiTuningTests"),

        // MARK: Protocol — wire messages shared by client and server.
        .target(name: "NanashiProtocol", dependencies: ["NanashiCore"], path: "Sources/NanashiProtocol"),
        .testTarget(
            name: "NanashiProtocolTests",
            dependencies: ["NanashiProtocol", "NanashiCore", "NanashiTestSupport"],
            path: "Tests/NanashiProtocolTests"),

        // MARK: Server — sockets, matchmaking, games, ratings, storage.
        .systemLibrary(
            name: "COpenSSL",
            path: "Server/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // What every part of the server shares: its settings, its one source of time (a clock tests
        // move by hand), event-loop timers, worker threads for work that blocks, deadlines, token
        // buckets, the TLS files.
        .target(
            name: "NanashiRuntime",
            dependencies: ["NanashiCore", "NanashiProtocol", nioSSL] + nio("NIOCore", "NIOPosix"),
            path: "Server/NanashiRuntime"),
        // Sockets: the line and WebSocket codecs, HTTP, TLS, admission and per-address limits, the
        // outbox each connection's replies go through, and the metrics of what they carry.
        .target(
            name: "NanashiTransport",
            dependencies: [
                "NanashiCore", "NanashiProtocol", "NanashiRuntime", "NanashiWeb", nioSSL, logging,
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
                + nio("NIOCore", "NIOPosix", "NIOHTTP1", "NIOWebSocket"),
            path: "Server/NanashiTransport"
        ),
        // Where players, tokens, games and ratings are kept: the `Storage` protocol and its SQLite
        // (GRDB) and PostgreSQL (PostgresNIO) implementations.
        .target(
            name: "NanashiStorage",
            dependencies: [
                "NanashiCore", "NanashiProtocol", "NanashiRuntime", grdb, postgres, nioSSL, logging,
                // SQLite's own calls, for the hottest write (`SQLiteStorage.insert`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
                + nio("NIOCore", "NIOPosix"),
            path: "Server/NanashiStorage"
        ),
        // The nodes of one database: the `Cluster` protocol (messages between nodes, heartbeats,
        // hosts and claims of games, the shared seek pool), on PostgreSQL and in memory (tests).
        .target(
            name: "NanashiCluster",
            dependencies: [
                "NanashiCore", "NanashiProtocol", "NanashiRuntime", "NanashiStorage", postgres, logging,
            ],
            path: "Server/NanashiCluster"
        ),
        // The game server: accounts, the lobby, games, ratings, engine seats, the relay of games
        // across nodes. Neither NIO nor a database driver: it speaks to the transport, storage
        // and cluster through their protocols.
        .target(
            name: "NanashiServer",
            dependencies: [
                "NanashiCore", "NanashiAI", "NanashiProtocol", "NanashiWeb", "COpenSSL", "NanashiRuntime",
                "NanashiStorage", "NanashiTransport", "NanashiCluster", logging,
            ],
            path: "Server/NanashiServer"
        ),
        .testTarget(
            name: "NanashiServerTests",
            dependencies: [
                "NanashiServer", "NanashiCluster", "NanashiRuntime", "NanashiStorage", "NanashiTransport",
                "NanashiProtocol", "NanashiWeb",
                "NanashiCore",
                "NanashiTestSupport", "NanashiServerTestSupport",
                // To make storage fail from outside, as a full disk would.
                grdb,
            ]
                // To test channel handlers on an event loop whose clock the test moves.
                + nio("NIOCore", "NIOEmbedded", "NIOHTTP1", "NIOWebSocket")
                // To watch a shared PostgreSQL from outside: who waits for whose lock.
                + [postgres, logging],
            path: "Tests/NanashiServerTests"
        ),

        // MARK: Web — the pages, their script and style, as functions of the server's data (no I/O).
        .target(
            name: "NanashiWeb", dependencies: ["NanashiCore", "NanashiProtocol"],
            path: "Server/NanashiWeb",
            // Built into the executable, so that one binary serves everything. The script's parts are
            // served joined, in the order of their names (Assets.swift).
            resources: [.embedInCode("Resources/nanashi.css")]
                + ["part1-start", "part2-board", "part3-live", "part4-game", "part5-play", "part6-end"].map {
                    .embedInCode("Resources/script/\($0).js")
                }),
        .testTarget(
            name: "NanashiWebTests",
            dependencies: [
                "NanashiWeb", "NanashiServer", "NanashiRuntime", "NanashiStorage", "NanashiTransport",
                "NanashiAI",
                "NanashiProtocol",
                "NanashiCore",
                "NanashiTestSupport",
                "NanashiServerTestSupport",
            ],
            path: "Tests/NanashiWebTests"
        ),

        // MARK: Load — bot clients that benchmark a running server.
        .target(
            name: "NanashiLoad",
            dependencies: ["NanashiCore", "NanashiProtocol", "NanashiClient"] + nio("NIOCore", "NIOPosix"),
            path: "Server/NanashiLoad"
        ),
        .testTarget(
            name: "NanashiLoadTests",
            dependencies: [
                "NanashiLoad", "NanashiServer", "NanashiStorage", "NanashiProtocol", "NanashiCore",
                "NanashiClient",
                "NanashiServerTestSupport", "NanashiTestSupport", "NanashiSubprocess",
            ],
            path: "Tests/NanashiLoadTests"
        ),

        // MARK: Client — the server connection, terminal rendering and input, and the one executable.
        .target(
            name: "NanashiClient",
            dependencies: ["NanashiCore", "NanashiAI", "NanashiProtocol", "NanashiTerminal", nioSSL]
                + nio("NIOCore", "NIOPosix"),
            path: "Sources/NanashiClient"
        ),
        .testTarget(
            name: "NanashiClientTests",
            dependencies: [
                "NanashiClient", "NanashiProtocol", "NanashiCore", "NanashiTerminal", "NanashiTestSupport",
            ],
            path: "Tests/NanashiClientTests"
        ),
        // The AI is here as the opponent of `nanashi play` and the judge of `nanashi replay`'s eval.
        .target(
            name: "NanashiTerminal", dependencies: ["NanashiCore", "NanashiAI", "NanashiProtocol"],
            path: "Sources/NanashiTerminal"),
        .testTarget(
            name: "NanashiTerminalTests",
            dependencies: [
                "NanashiTerminal", "NanashiCore", "NanashiAI", "NanashiProtocol", "NanashiTestSupport",
            ],
            path: "Tests/NanashiTerminalTests"
        ),
        // The command line's option groups and the settings they make, apart from the executable
        // so that a unit test reaches them.
        .target(
            name: "NanashiCommandLine",
            dependencies: [
                "NanashiCore", "NanashiAI", "NanashiTerminal", "NanashiClient", "NanashiRuntime",
                "NanashiServer", "NanashiStorage", "NanashiLoad", "NanashiMatch", "NanashiTuning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), logging,
            ],
            path: "Sources/NanashiCommandLine"
        ),
        .testTarget(
            name: "NanashiCommandLineTests",
            dependencies: [
                "NanashiCommandLine", "NanashiRuntime", "NanashiServer", "NanashiLoad", "NanashiClient",
                "NanashiCore",
            ],
            path: "Tests/NanashiCommandLineTests"
        ),
        .executableTarget(
            name: "nanashi",
            dependencies: [
                "NanashiCore", "NanashiAI", "NanashiTerminal", "NanashiProtocol", "NanashiServer",
                "NanashiStorage", "NanashiCommandLine",
                "NanashiClient", "NanashiLoad", "NanashiMatch", "NanashiTuning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), logging,
            ],
            path: "Sources/nanashi"
        ),

        // MARK: Tests — what the test targets share (a line client, a seeded generator, moves written
        // as literals, the color swap, the trait for blocking tests; apart, so only tests that need
        // a server build one: the server launchers), then the end-to-end tests through the real
        // executable.
        .target(
            name: "NanashiTestSupport", dependencies: ["NanashiCore", "NanashiSubprocess"],
            path: "Tests/NanashiTestSupport"),
        .target(
            name: "NanashiServerTestSupport",
            dependencies: [
                "NanashiServer", "NanashiCluster", "NanashiRuntime", "NanashiStorage", "NanashiTransport",
                "NanashiProtocol",
                "NanashiTestSupport", "NanashiSubprocess",
                logging,
            ],
            path: "Tests/NanashiServerTestSupport"
        ),
        .testTarget(
            name: "NanashiCLITests",
            dependencies: [
                "nanashi", "NanashiCore", "NanashiTestSupport", "NanashiServerTestSupport",
                "NanashiSubprocess",
                // To read the records `nanashi datagen` writes.
                "NanashiTuning",
                // To add players to a server's database before it starts.
                "NanashiServer", "NanashiStorage",
                // To read a server's database file as it was left by a killed process.
                grdb,
            ],
            path: "Tests/NanashiCLITests"
        ),
    ]
)
