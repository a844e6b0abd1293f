/// A message with the `"id"` beside its `"type"` and fields: a client's `Request` (an id of the
/// client's choosing) or a server's `Reply` (the id of the request it answers, if any).
public struct Identified<Message: WireMessage>: Hashable, Sendable {
    public var id: RequestID?
    public var message: Message

    public init(_ message: Message, id: RequestID? = nil) {
        self.id = id
        self.message = message
    }
}

/// A client message with its optional `"id"`.
public typealias Request = Identified<ClientMessage>

/// A server message with the `"id"` of the request it answers, if any.
public typealias Reply = Identified<ServerMessage>

/// The messages of one side of the protocol: a `"type"` and fields, which `Identified` writes and
/// reads beside the `"id"`.
public protocol WireMessage: Hashable, Sendable {
    /// The wire name of the message, its `"type"`.
    var type: String { get }
    /// Reads the message named `type` from the fields of `decoder`.
    init(type: String, from decoder: any Decoder) throws
    /// Writes the message's fields but `"type"` and `"id"`.
    func encodeFields(to encoder: any Encoder) throws
    /// Refuses an id this side does not take, before the message is read.
    static func check(_ id: RequestID?) throws
}

extension WireMessage {
    public static func check(_ id: RequestID?) throws {}
}

extension Identified: Codable {
    private enum Keys: String, CodingKey { case type, id }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decodeIfPresent(RequestID.self, forKey: .id)
        try Message.check(id)
        message = try Message(type: try container.decode(String.self, forKey: .type), from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(message.type, forKey: .type)
        try container.encodeIfPresent(id, forKey: .id)
        try message.encodeFields(to: encoder)
    }
}
