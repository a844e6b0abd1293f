import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension FileHandle {
    /// The bytes there are to read now (waiting for at least one), or none at the end: as
    /// `availableData`, but a read interrupted by a signal is tried again. Foundation's
    /// `availableData` and `readDataToEndOfFile()` stop the program with "Interrupted system
    /// call" instead, which a suite that starts many processes meets now and then.
    public func nextChunk() -> Data {
        var bytes = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fileDescriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(bytes[0..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Everything up to the end: `readDataToEndOfFile()`, with interrupted reads tried again.
    public func restUntilEnd() -> Data {
        var data = Data()
        while true {
            let chunk = nextChunk()
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }
}
