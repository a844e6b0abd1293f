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

/// A JSON string literal safe inside an HTML `<script type="application/json">` block: `<`, `>`
/// and `&` are escaped too, so no text can close the block.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case "<": result += "\\u003c"
        case ">": result += "\\u003e"
        case "&": result += "\\u0026"
        case "\u{2028}": result += "\\u2028"
        case "\u{2029}": result += "\\u2029"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

/// The frame every page shares: the header with its links, the page's own content, the script.
func page(title: String, body: String, pageKind: String = "", data: String? = nil) -> String {
    let dataBlock = data.map { "\n<script type=\"application/json\" id=\"page-data\">\($0)</script>" } ?? ""
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

/// A rating as the terminal writes it: `1662 ± 290`, with `?` when provisional.
func ratingText(_ rating: Int, rd: Int, provisional: Bool) -> String {
    "\(rating) ± \(rd)"
        + (provisional ? " <abbr class=\"provisional\" title=\"provisional rating\">?</abbr>" : "")
}

/// A time control as people write it: `5+3` (minutes, then seconds a move); seconds when under a minute.
func controlText(initial: Int, increment: Int) -> String {
    let start = initial % 60 == 0 ? "\(initial / 60)" : "\(initial)s"
    return "\(start)+\(increment)"
}

/// A link to a player's page.
func playerLink(_ name: String) -> String {
    "<a href=\"/player/\(escaped(pathSegment(name)))\">\(escaped(name))</a>"
}
