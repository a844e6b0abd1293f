import Foundation

/// Protocol v1 framing: one JSON object per line, UTF-8, at most `maximumLineLength` bytes.
///
/// Lines are written with sorted keys so the same message is always the same bytes.
public enum Wire {
    /// The longest line either side accepts, in bytes, not counting the newline.
    public static let maximumLineLength = 4096

    /// The line for a server message, without its newline.
    public static func line(_ reply: Reply) -> String {
        let line: String? =
            switch reply.message {
            case .moved(let moved): movedLine(moved, id: reply.id)
            case .start(let start): startLine(start, id: reply.id)
            case .end(let end): endLine(end, id: reply.id)
            case .welcome(let welcome): welcomeLine(welcome, id: reply.id)
            case .watching(let watched):
                watchingLine(watched, id: reply.id, movesArray: movesArray(watched.moves))
            default: nil
            }
        return line ?? encode(reply)
    }

    /// The line for a client message, without its newline.
    public static func line(_ request: Request) -> String {
        if case .move(let game, let move) = request.message,
            let line = moveLine(game: game, move: move, id: request.id)
        {
            return line
        }
        return encode(request)
    }

    /// Reads a client message from one line (without its newline).
    ///
    /// - Throws: `bad_json` when the line is not UTF-8 JSON, `unknown_type` for a type this
    ///   version does not know, `bad_request` for anything else malformed. The error's request id
    ///   is available through `requestID(inLine:)`.
    public static func request(fromLine line: some Collection<UInt8>) throws(ProtocolError) -> Request {
        if let move = moveRequest(fromLine: line) { return move }
        return try decode(Request.self, from: Data(line))
    }

    /// Reads a server message from one line (without its newline), as a client does.
    public static func reply(fromLine line: some Collection<UInt8>) throws(ProtocolError) -> Reply {
        if let moved = movedReply(fromLine: line) { return moved }
        return try decode(Reply.self, from: Data(line))
    }

    /// The `"id"` of a line, if it is a JSON object with a well-formed one that a request may
    /// carry (`RequestID.isAcceptable`), so that even a refused message gets its id echoed.
    public static func requestID(inLine line: some Collection<UInt8>) -> RequestID? {
        let id = try? JSONDecoder().decode(IDOnly.self, from: Data(line)).id
        if case .string(let text)? = id, !RequestID.isAcceptable(text) { return nil }
        return id
    }

    private struct IDOnly: Decodable {
        var id: RequestID?
    }

    /// JSON as the protocol writes it: sorted keys, slashes as they are.
    package static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Every message is made of strings, integers, booleans, arrays and objects; none
            // of them can fail to encode.
            preconditionFailure("a protocol message failed to encode: \(error)")
        }
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(ProtocolError)
        -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as ProtocolError {
            throw error
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            // The decoder reports a number too big for its field like a syntax error; only a
            // second look tells well-formed JSON with a bad value from a broken line.
            if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil {
                throw ProtocolError(.badRequest, "a number is out of range")
            }
            throw ProtocolError(.badJSON, "not a JSON object on one UTF-8 line")
        } catch let DecodingError.keyNotFound(key, _) {
            throw ProtocolError(.badRequest, "missing field '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.isEmpty {
            throw ProtocolError(.badRequest, "a message must be a JSON object")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ProtocolError(.badRequest, "field '\(path(context))' has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) where context.codingPath.isEmpty {
            throw ProtocolError(.badRequest, "a message must be a JSON object")
        } catch let DecodingError.valueNotFound(_, context) {
            throw ProtocolError(.badRequest, "field '\(path(context))' is null")
        } catch let DecodingError.dataCorrupted(context) {
            throw ProtocolError(.badRequest, "field '\(path(context))' is out of range")
        } catch {
            throw ProtocolError(.badJSON, "not a JSON object on one UTF-8 line")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}
