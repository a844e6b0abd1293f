import NanashiCore

/// The named starting positions as `nanashi layouts` prints them: each layout's name, blocked
/// squares and FEN, above its board.
public enum LayoutSheet {
    /// Every layout of `Layout.all`, in order, a blank line between them.
    public static func text(color: Bool = false) -> String {
        let renderer = BoardRenderer(color: color)
        return Layout.all.map { layout in
            let blockers =
                layout.isStandard ? "no blockers" : layout.blockers.map(\.name).joined(separator: " ")
            // The board without its status lines (counts and turn are the same for every layout).
            let board = renderer.render(layout.position).split(
                separator: "\n", omittingEmptySubsequences: false
            )
            .prefix(9).joined(separator: "\n")
            return "\(layout.name): \(blockers)\n  \(layout.fen)\n\(board)\n"
        }.joined(separator: "\n")
    }
}
