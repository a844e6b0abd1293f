import Foundation
import NanashiRuntime
import Testing

@testable import NanashiServer

@Test func sha256MatchesTheStandardVector() {
    let digest = Secrets.sha256(Array("abc".utf8))
    let hex = digest.map { String(format: "%02x", $0) }.joined()
    #expect(hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
}

@Test func scryptMatchesRFC7914() {
    // RFC 7914 section 12, second vector: "password", "NaCl", N=1024, r=8, p=16, 64 bytes.
    let key = Secrets.scrypt(
        password: Array("password".utf8), salt: Array("NaCl".utf8), cost: ScryptCost(log2N: 10, r: 8, p: 16),
        length: 64)
    let hex = key?.map { String(format: "%02x", $0) }.joined()
    #expect(
        hex
            == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
            + "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640")
}

@Test func passwordHashRoundTripsThroughItsStoredForm() throws {
    let hash = try #require(PasswordHash.make(password: "correct horse", cost: .testing))
    let stored = hash.description
    #expect(stored.hasPrefix("scrypt$4$1$1$"))
    let read = try #require(PasswordHash(stored: stored))
    #expect(read == hash)
    #expect(read.verify("correct horse"))
    #expect(!read.verify("correct horsE"))
    #expect(!read.verify(""))
}

@Test(arguments: [
    "", "scrypt$4$1$1$AAAA", "bcrypt$4$1$1$AAAA$AAAA", "scrypt$99$1$1$AAAA$AAAA", "scrypt$4$1$1$!!$AAAA",
])
func malformedStoredHashesAreRefused(text: String) {
    #expect(PasswordHash(stored: text) == nil)
}

@Test func tokensAreRandomAndFoundByTheirDigest() throws {
    let first = SessionToken.generate()
    let second = SessionToken.generate()
    #expect(first.text != second.text)
    #expect(first.text.count == 43)
    #expect(first.text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    #expect(SessionToken.digest(of: first.text) == first.digest)
    #expect(SessionToken.digest(of: second.text) != first.digest)
    #expect(SessionToken.digest(of: "short") == nil)
    #expect(SessionToken.digest(of: first.text + "A") == nil)
}

@Test func constantTimeComparison() {
    #expect(Secrets.constantTimeEqual([1, 2, 3], [1, 2, 3]))
    #expect(!Secrets.constantTimeEqual([1, 2, 3], [1, 2, 4]))
    #expect(!Secrets.constantTimeEqual([1, 2, 3], [1, 2]))
    #expect(Secrets.constantTimeEqual([], []))
}

@Test(arguments: [[UInt8](), [0], [0xfb, 0xff], [0, 1, 2, 3, 4, 5, 250, 251, 252]])
func base64URLRoundTrips(bytes: [UInt8]) {
    let text = Base64URL.encode(bytes)
    #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
    #expect(Base64URL.decode(text) == bytes)
}
