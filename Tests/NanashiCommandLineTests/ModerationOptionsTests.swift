import ArgumentParser
import NanashiCommandLine
import Testing

// `nanashi admin`'s actions name the player, the reason and who acts.

@Test func theModeratorIsTheOneNamedElseTheUser() throws {
    let named = try ModerationOptions.parse(["--reason", "spam", "--moderator", "ann", "bob"])
    #expect(named.moderatorName(environment: ["USER": "root"]) == "ann")
    let unnamed = try ModerationOptions.parse(["--reason", "spam", "bob"])
    #expect(unnamed.moderatorName(environment: ["USER": "root"]) == "root")
    #expect(unnamed.moderatorName(environment: [:]) == "")
}

@Test func anActionNeedsAReasonAndAPlayer() {
    #expect(throws: (any Error).self) { try ModerationOptions.parse(["bob"]) }
    #expect(throws: (any Error).self) { try ModerationOptions.parse(["--reason", "spam"]) }
}
