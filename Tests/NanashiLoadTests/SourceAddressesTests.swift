import NanashiLoad
import Testing

@Test(arguments: [
    ("127.0.1.0/24", 256, ["127.0.1.0", "127.0.1.1", "127.0.1.255", "127.0.1.0"]),
    ("127.0.1.77/24", 256, ["127.0.1.0", "127.0.1.1", "127.0.1.255", "127.0.1.0"]),
    ("127.1.0.0/16", 65_536, ["127.1.0.0", "127.1.0.1", "127.1.0.255", "127.1.1.0"]),
    ("127.0.0.9/32", 1, ["127.0.0.9", "127.0.0.9", "127.0.0.9", "127.0.0.9"]),
])
func aBlockListsItsAddressesInOrderAndWraps(cidr: String, count: Int, addresses: [String]) throws {
    let block = try #require(SourceAddresses(cidr: cidr))
    #expect(block.count == count)
    #expect([0, 1, 255, 256].map(block.address) == addresses)
}

@Test(arguments: [
    "127.0.1.0", "127.0.1.0/15", "127.0.1.0/33", "127.0.1/24", "127.0.1.256/24", "a.b.c.d/24", "/24", "",
])
func aMalformedBlockIsRefused(text: String) {
    #expect(SourceAddresses(cidr: text) == nil)
}
