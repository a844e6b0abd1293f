import NanashiCore
import NanashiProtocol

/// Text made safe to put in HTML, in an element or a quoted attribute alike.
func escaped(_ text: some StringProtocol) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&#39;"
        default: result.unicodeScalars.append(character)
        }
    }
    return result
}

/// Text as a URL path segment: everything but letters, digits, `-`, `_`, `.` and `~` percent-encoded.
func pathSegment(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"):
            result.unicodeScalars.append(Unicode.Scalar(byte))
        default:
            let digits = Array("0123456789ABCDEF")
            result += "%\(digits[Int(byte >> 4)])\(digits[Int(byte & 15)])"
        }
    }
    return result
}

/// What a page hands its script, in a `<script type="application/json">` block.
struct PageData: Encodable {
    /// `replay` (a finished game), `watch` (a game in progress) or `challenge` (an invitation).
    var mode: String
    var game: Int64?
    /// An invitation by link, as the protocol's `challenged` would tell it.
    var invitation: Reply?
    /// The position before the first move and after each one, for a replay.
    var fens: [String]?
    var moves: [String]?
    /// The pieces each move turned over, for a replay: the core's, so the script needs no rules.
    var converted: [[Square]]?
    /// The engine's levels with their strength, for a watched game: its player is shown at its
    /// level's (`strengthText`).
    var levels: [LevelEntry]?

    /// The data as its block holds it (`scriptJSON`).
    var json: String { scriptJSON(self) }
}

/// JSON for a `<script type="application/json">` block: as the protocol writes it, with `<`, `>`
/// and `&` escaped too, so that no text can close the block.
func scriptJSON(_ value: some Encodable) -> String {
    Wire.encode(value).replacing("<", with: "\\u003c").replacing(">", with: "\\u003e")
        .replacing("&", with: "\\u0026")
}

/// The frame every page shares: the header with its links, the page's own content, the script.
/// A page that shows a game end (`showsEnds`) carries the core's words for it (`Verdicts`).
func page(title: String, body: String, pageKind: String = "", data: PageData? = nil, showsEnds: Bool = false)
    -> String
{
    var dataBlock =
        data.map { "\n<script type=\"application/json\" id=\"page-data\">\($0.json)</script>" } ?? ""
    if showsEnds { dataBlock += "\n" + Verdicts.block }
    return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title)) · Nanashi</title>
        <link rel="stylesheet" href="/static/nanashi.css">
        <link rel="icon" href="data:,">
        </head>
        <body data-page="\(escaped(pageKind))">
        <header class="top"><a class="brand" href="/">Nanashi</a><nav><a href="/">Leaderboard</a> <a href="/play">Play</a></nav></header>
        <main>
        \(body)
        </main>\(dataBlock)
        <script src="/static/nanashi.js"></script>
        </body>
        </html>

        """
}

/// A player's strength as the pages show it beside the name: the rating, or for the engine's
/// player its level's (`about 780`), since the server rates that player at an unrated 1500.
func strengthText(_ player: GamePlayer, levels: [LevelEntry]) -> String {
    guard let level = player.engineLevel, let entry = levels.first(where: { $0.level == level }) else {
        return "\(player.rating)"
    }
    return "about \(entry.elo)"
}

/// A rating as the terminal writes it: `1662 ± 290`, with `?` when provisional.
func ratingText(_ rating: Int, rd: Int, provisional: Bool) -> String {
    "\(rating) ± \(rd)"
        + (provisional ? " <abbr class=\"provisional\" title=\"provisional rating\">?</abbr>" : "")
}

/// A link to a player's page.
func playerLink(_ name: String) -> String {
    "<a href=\"/player/\(escaped(pathSegment(name)))\">\(escaped(name))</a>"
}
