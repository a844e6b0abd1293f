/// The characters the full screen frames the board with: box-drawing lines where the terminal
/// reads UTF-8, plain ASCII elsewhere.
public struct BoxGlyphs: Hashable, Sendable {
    public let horizontal: Character
    public let vertical: Character
    public let topLeft: Character
    public let topRight: Character
    public let bottomLeft: Character
    public let bottomRight: Character

    public static let unicode = BoxGlyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    public static let ascii = BoxGlyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")

    /// Box-drawing lines when the locale's character set is UTF-8 (the first of `LC_ALL`,
    /// `LC_CTYPE` and `LANG` that is set decides), ASCII otherwise.
    public static func forLocale(_ environment: [String: String]) -> BoxGlyphs {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        let charset = (locale ?? "").lowercased().filter { $0 != "-" }
        return charset.contains("utf8") ? .unicode : .ascii
    }
}
