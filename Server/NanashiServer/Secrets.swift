import COpenSSL
import NanashiRuntime

/// The few primitives of libcrypto the server needs: randomness, SHA-256, scrypt and a
/// constant-time comparison.
enum Secrets {
    /// Bytes from the system's cryptographic generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        // Without a working random source no token or salt is safe; carrying on would be worse.
        precondition(status == 1, "RAND_bytes failed: the system random source is unavailable")
        return bytes
    }

    /// The SHA-256 digest of some bytes.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA256(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }

    /// Derives `length` bytes from a password with scrypt, or `nil` if libcrypto refuses the
    /// parameters (for example, more memory than allowed).
    static func scrypt(password: [UInt8], salt: [UInt8], cost: ScryptCost, length: Int) -> [UInt8]? {
        var key = [UInt8](repeating: 0, count: length)
        let n = UInt64(1) << UInt64(cost.log2N)
        // scrypt needs 128·r·N bytes for its big array plus 128·r·p for the blocks; allow
        // headroom so OWASP's parameters (128 MiB) pass libcrypto's default 32 MiB cap.
        let memory = 128 * UInt64(cost.r) * (n + UInt64(cost.p) + 2) + (1 << 20)
        let status = password.withUnsafeBufferPointer { pass in
            salt.withUnsafeBufferPointer { salt in
                key.withUnsafeMutableBufferPointer { out in
                    pass.withMemoryRebound(to: CChar.self) { pass in
                        EVP_PBE_scrypt(
                            pass.baseAddress, pass.count, salt.baseAddress, salt.count, n, UInt64(cost.r),
                            UInt64(cost.p), memory, out.baseAddress, out.count)
                    }
                }
            }
        }
        return status == 1 ? key : nil
    }

    /// Whether two secrets are equal, taking the same time wherever they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBytes { a in
            b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
