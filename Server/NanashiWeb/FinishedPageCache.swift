import Synchronization

/// The pages of finished games as first rendered: a finished game never changes, so its page is
/// rendered (every ply replayed) once and served from here after that.
///
/// Bounded without a scan: two generations of at most `limit` pages each; when the newer is
/// full the older is dropped whole, and a page served from the older moves to the newer.
final class FinishedPageCache: Sendable {
    private let limit: Int
    private let pages = Mutex<Generations>(Generations())

    private struct Generations: Sendable {
        var current: [Int64: WebResponse] = [:]
        var previous: [Int64: WebResponse] = [:]
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The page of game `id`, if it was rendered before.
    func page(_ id: Int64) -> WebResponse? {
        pages.withLock { pages in
            if let page = pages.current[id] { return page }
            guard let page = pages.previous.removeValue(forKey: id) else { return nil }
            Self.add(page, id, to: &pages, limit: limit)
            return page
        }
    }

    func keep(_ page: WebResponse, for id: Int64) {
        pages.withLock { Self.add(page, id, to: &$0, limit: limit) }
    }

    private static func add(_ page: WebResponse, _ id: Int64, to pages: inout Generations, limit: Int) {
        if pages.current.count >= limit {
            pages.previous = pages.current
            pages.current = [:]
        }
        pages.current[id] = page
    }
}
