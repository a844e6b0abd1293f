import NanashiProtocol

/// A report of `nanashi loadtest`: lines for people (`text`), or the same as one line of JSON.
public protocol PrintedReport: Encodable {
    /// The report as lines for people.
    var text: String { get }
}

extension PrintedReport {
    /// The report as `nanashi loadtest` prints it: `text`, or with `json` the protocol's JSON.
    public func printed(json: Bool) -> String { json ? Wire.encode(self) : text }
}

extension LoadReport: PrintedReport {}
extension QueryReport: PrintedReport {}
