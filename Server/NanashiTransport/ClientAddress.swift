import NIOCore

/// The key that per-address limits count a client by: an IPv4 address as it is, an IPv6
/// address by its /64 prefix (one subscriber usually holds a whole /64, millions of addresses),
/// and an IPv4 address mapped into IPv6 as the IPv4 address.
package enum ClientAddress {
    package static func key(_ address: SocketAddress?) -> String {
        guard let address else { return "unknown" }
        guard case .v6(let v6) = address else { return address.ipAddress ?? "unknown" }
        let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
        guard bytes.count == 16 else { return address.ipAddress ?? "unknown" }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
