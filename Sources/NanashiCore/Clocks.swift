/// Both clocks, in milliseconds left.
public struct Clocks: Hashable, Sendable, Codable {
    public var x: Int64
    public var o: Int64

    public init(x: Int64, o: Int64) {
        self.x = x
        self.o = o
    }

    /// The time left to one side.
    public subscript(side: Side) -> Int64 {
        get { side == .x ? x : o }
        set {
            if side == .x { x = newValue } else { o = newValue }
        }
    }
}
