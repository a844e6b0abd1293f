/// The cost of scrypt: N = 2^log2N, block size r, parallelism p.
public struct ScryptCost: Hashable, Sendable {
    public var log2N: Int
    public var r: Int
    public var p: Int

    public init(log2N: Int, r: Int, p: Int) {
        self.log2N = log2N
        self.r = r
        self.p = p
    }

    /// OWASP's recommendation: N = 2^17, r = 8, p = 1 (128 MiB and a few hundred ms a hash).
    public static let owasp = ScryptCost(log2N: 17, r: 8, p: 1)
    /// A cost so low it protects nothing: for tests only.
    public static let testing = ScryptCost(log2N: 4, r: 1, p: 1)
}
