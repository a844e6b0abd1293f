import NanashiCore

/// A game's time control as its messages carry it: `initial` and `increment`, whole seconds, as
/// fields of the message itself rather than an object of their own (`start`, `game`, `live`).
/// Written by `TimeControl.encode(to:)`, whose two keys join the message's.
extension TimeControl {
    private enum FieldKeys: String, CodingKey { case initial, increment }

    /// Reads `initial` and `increment` from the fields of the message being decoded; both must
    /// be there (unlike a `seek`'s, which default).
    package init(fieldsOf decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKeys.self)
        self.init(
            initial: try container.decode(Int.self, forKey: .initial),
            increment: try container.decode(Int.self, forKey: .increment))
    }
}
