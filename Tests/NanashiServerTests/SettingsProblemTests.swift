import Logging
import NanashiRuntime
import Testing

@testable import NanashiServer

// The settings `nanashi serve` builds from its options are checked before anything starts.

/// The default settings with one change.
private func changed(_ change: (inout ServerSettings) -> Void) -> ServerSettings {
    var settings = ServerSettings()
    change(&settings)
    return settings
}

@Test func theDefaultSettingsHaveNoProblem() {
    #expect(ServerSettings().problem == nil)
}

@Test func aBadServerSettingIsNamed() {
    let cases: [(ServerSettings, String)] = [
        (changed { $0.port = 70_000 }, "bad port 70000: use 0 to 65535"),
        (changed { $0.httpPort = 70_000 }, "bad HTTP port 70000: use 0 to 65535"),
        (changed { $0.metricsPort = -1 }, "bad metrics port -1: use 0 to 65535"),
        (
            changed { $0.allowedOrigins = ["https://ok.example", "example.org"] },
            "bad origin 'example.org': write it as a page's address, like https://example.org"
        ),
        (
            changed { $0.publicHosts = ["play.example", "https://play.example"] },
            "bad public host 'https://play.example': write it as a name, like example.org or example.org:8443"
        ),
        (changed { $0.abandonGrace = .seconds(0) }, "bad grace 0: use 1 second or more"),
        (changed { $0.nodeLease = .seconds(0) }, "bad node lease 0: use 1 to 3600 seconds"),
        (changed { $0.idleTimeout = .seconds(0) }, "bad idle timeout 0: use 1 to 86400 seconds"),
        (
            changed { $0.idleTimeout = .seconds(Int.max) },
            "bad idle timeout 9223372036854775807: use 1 to 86400 seconds"
        ),
        (
            changed { $0.backgroundAnalysesPerHour = -1 },
            "bad background analyses -1.0: use 0 to 3600 an hour"
        ),
        (changed { $0.messageBurst = 0 }, "bad message burst 0: use 1 or more"),
        (changed { $0.readBurstPerAddress = 0 }, "bad read burst 0: use 1 or more"),
        (changed { $0.readRatePerAddress = .infinity }, "bad read rate inf: use more than 0"),
        (changed { $0.messageRate = 0 }, "bad message rate 0.0: use more than 0"),
        (changed { $0.messageRate = .infinity }, "bad message rate inf: use more than 0"),
        (changed { $0.maximumConnectionsPerAddress = 0 }, "bad connection limits 20000, 0: use 1 or more"),
        (changed { $0.connectionBurstPerAddress = 0 }, "bad connection burst 0: use 1 or more"),
        (changed { $0.connectionRatePerAddress = 0 }, "bad connection rate 0.0: use more than 0"),
        (changed { $0.loginsPerMinute = 0.5 }, "bad login or registration rate: use 1 or more"),
        (changed { $0.registrationsPerHour = .nan }, "bad login or registration rate: use 1 or more"),
        (
            changed { $0.moveCommitDelay = .milliseconds(101) },
            "bad commit delay 101: use 0 to 100 milliseconds"
        ),
        (
            changed { $0.moveCommitDelay = .milliseconds(-1) },
            "bad commit delay -1: use 0 to 100 milliseconds"
        ),
    ]
    for (settings, problem) in cases { #expect(settings.problem == problem) }
}
