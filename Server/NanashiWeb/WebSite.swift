import NanashiCore
import NanashiProtocol

/// The web pages, their script and style, `/metrics` and `/healthz`: each request answered from
/// a `WebSource`. It owns no socket; the server's transport hands it requests (`/ws` never
/// reaches it: that is the protocol's socket).
///
/// ```swift
/// let site = WebSite(source: source)
/// let response = await site.respond(to: WebRequest(method: "GET", target: "/player/ann"))
/// ```
public struct WebSite: Sendable {
    /// Which requests a site answers: the public pages, or the operator's `/metrics` (served on
    /// a port of its own, on loopback unless the operator says otherwise). Both answer `/healthz`.
    public enum Part: Sendable { case pages, metrics }

    private let source: any WebSource
    private let part: Part
    /// The pages of finished games, rendered once (copies of the site share it).
    private let finishedPages = FinishedPageCache(limit: 2000)

    public init(source: any WebSource, part: Part = .pages) {
        self.source = source
        self.part = part
    }

    /// Answers one request. Anything but `GET` and `HEAD` gets 405; a `HEAD` gets the headers of
    /// the `GET` with an empty body (the transport sends the length).
    public func respond(to request: WebRequest) async -> WebResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = WebResponse.text("only GET and HEAD are served here\n", status: 405)
            response.headers.append((name: "Allow", value: "GET, HEAD"))
            return response
        }
        do {
            return try await route(request)
        } catch {
            return .text("the server failed to answer; try again\n", status: 500)
        }
    }

    private func route(_ request: WebRequest) async throws -> WebResponse {
        let segments = request.segments
        if part == .metrics {
            switch (segments.first ?? "", segments.count) {
            case ("metrics", 1):
                return .text(await source.metrics(), contentType: "text/plain; version=0.0.4; charset=utf-8")
            case ("healthz", 1):
                return .text("ok\n")
            default:
                return .text("only /metrics and /healthz are served here\n", status: 404)
            }
        }
        switch (segments.first ?? "", segments.count) {
        case ("", 0):
            return try await home(request)
        case ("play", 1):
            return .html(PlayPage.html(levels: source.levels))
        case ("challenge", 2):
            return await invitation(segments[1])
        case ("player", 2):
            return try await player(segments[1], request)
        case ("game", 2):
            return try await game(segments[1])
        case ("game", 3) where segments[2] == "pgn":
            return try await pgn(segments[1])
        case ("game", 3) where segments[2] == "analysis":
            return try await analysis(segments[1])
        case ("static", 2) where segments[1] == "nanashi.js":
            return Self.asset(Assets.script, type: "text/javascript; charset=utf-8")
        case ("static", 2) where segments[1] == "nanashi.css":
            return Self.asset(Assets.stylesheet, type: "text/css; charset=utf-8")
        case ("healthz", 1):
            return .text("ok\n")
        default:
            return notFound("There is no page at this address.")
        }
    }

    private func home(_ request: WebRequest) async throws -> WebResponse {
        var notFound: String?
        if let name = request.query["name"]?.trimmingWhitespace(), !name.isEmpty {
            if let profile = try await source.profile(name: String(name.prefix(40))) {
                return .redirect(to: "/player/\(pathSegment(profile.name))")
            }
            notFound = String(name.prefix(40))
        }
        let offset = min(max(Int(request.query["offset"] ?? "") ?? 0, 0), 10_000_000)
        async let live = source.liveGames()
        let leaderboard = try await source.leaderboard(limit: HomePage.pageSize, offset: offset)
        let page = HomePage(
            leaderboard: leaderboard, offset: offset, live: await live, notFound: notFound,
            levels: source.levels)
        return .html(page.html)
    }

    private func player(_ name: String, _ request: WebRequest) async throws -> WebResponse {
        let before = request.query["before"].flatMap { Int64($0) }
        guard let profile = try await source.profile(name: name),
            let archive = try await source.finishedGames(
                name: name, before: before, limit: PlayerPage.pageSize)
        else {
            return notFound("No player is called “\(escaped(name.prefix(40)))”.")
        }
        return .html(
            PlayerPage(profile: profile, archive: archive, before: before, levels: source.levels).html)
    }

    private func game(_ text: String) async throws -> WebResponse {
        guard let id = Int64(text), id > 0 else {
            return notFound("There is no game \(escaped(text.prefix(20))).")
        }
        if let page = finishedPages.page(id) { return page }
        if let record = try await source.finishedGame(id: id) {
            let page = WebResponse.html(try GamePage.finished(record, levels: source.levels))
            finishedPages.keep(page, for: id)
            return page
        }
        if await source.isInProgress(game: id) {
            return .html(GamePage.live(game: id, levels: source.levels))
        }
        return notFound("There is no game \(id).")
    }

    private func pgn(_ text: String) async throws -> WebResponse {
        guard let id = Int64(text), id > 0, let record = try await source.finishedGame(id: id) else {
            return notFound("There is no finished game \(escaped(text.prefix(20))).")
        }
        var response = WebResponse.text(record.pgn, contentType: "application/x-chess-pgn; charset=utf-8")
        response.headers.append(
            (name: "Content-Disposition", value: "attachment; filename=\"nanashi-\(id).pgn\""))
        return response
    }

    /// `/game/G/analysis`: the stored analysis as the protocol's `analysis` message, or 404 when
    /// there is none yet (the page then offers to ask for it over `/ws`). Never computes one.
    private func analysis(_ text: String) async throws -> WebResponse {
        guard let id = Int64(text), id > 0, let fields = try await source.storedAnalysis(game: id) else {
            return .text("no analysis of this game yet\n", status: 404)
        }
        return .text(try Wire.analysisLine(fields: fields, id: nil), contentType: "application/json")
    }

    /// `message` is HTML, its strings already escaped.
    /// `/challenge/ID`: the play page with the invitation to accept once logged in; a link
    /// taken, withdrawn or expired says so.
    private func invitation(_ id: String) async -> WebResponse {
        let wellFormed =
            id.utf8.count == 22
            && id.utf8.allSatisfy {
                $0 == 45 || $0 == 95 || (48...57).contains($0) || (65...90).contains($0)
                    || (97...122).contains($0)
            }
        guard wellFormed, let notice = await source.openChallenge(id: id) else {
            return .html(
                page(
                    title: "Challenge",
                    body:
                        "<section><h1>This challenge is not open</h1><p>It was taken, withdrawn, or has expired (a challenge stands 10 minutes).</p><p><a href=\"/play\">Play</a></p></section>"
                ),
                status: 410)
        }
        return .html(PlayPage.html(levels: source.levels, invitation: notice))
    }

    private func notFound(_ message: String) -> WebResponse {
        .html(
            page(
                title: "Not found",
                body:
                    "<section><h1>Not found</h1><p>\(message)</p><p><a href=\"/\">The leaderboard</a></p></section>"
            ),
            status: 404)
    }

    private static func asset(_ bytes: [UInt8], type: String) -> WebResponse {
        WebResponse(
            status: 200, contentType: type, body: bytes,
            headers: WebResponse.securityHeaders + [("Cache-Control", "public, max-age=300")])
    }
}
