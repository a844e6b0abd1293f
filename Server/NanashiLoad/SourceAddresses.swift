/// The IPv4 addresses of a CIDR block (`127.0.1.0/24`) that bots connect from, so that a load
/// test on one machine looks like many clients to the server's per-address limits. On Linux the
/// whole of 127.0.0.0/8 is this machine.
public struct SourceAddresses: Hashable, Sendable {
    /// The first address of the block, as a 32-bit number.
    public let first: UInt32
    /// How many addresses the block holds (at most 65,536).
    public let count: Int

    /// Reads `A.B.C.D/N` with N from 16 to 32; `nil` if it is not one.
    public init?(cidr text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let prefix = Int(parts[1]), (16...32).contains(prefix) else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for octet in octets {
            guard octet.count <= 3, let byte = UInt8(octet) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        let hostBits = 32 - prefix
        let mask: UInt32 = hostBits == 32 ? 0 : ~UInt32(0) << hostBits
        first = value & mask
        count = 1 << hostBits
    }

    /// The address at `index`, wrapping around the block.
    public func address(_ index: Int) -> String {
        let value = first &+ UInt32(index % count)
        return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
    }
}
