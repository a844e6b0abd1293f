import NanashiCore

/// The layout picker of the play page: a radio button per layout (`Layout.all`), each with a
/// small picture of its board (a 7 by 7 grid of cells: x, o, a blocker or empty) and its name.
/// The one checked is the start of the next seek or challenge (`name="layout"`).
enum LayoutPicker {
    static var html: String {
        let choices = Layout.all.map { layout in
            let checked = layout.isStandard ? " checked" : ""
            return """
                <label class="layout" title="\(escaped(layout.fen))"><input type="radio" name="layout" \
                value="\(escaped(layout.name))"\(checked)>\(picture(layout.position))<span>\(escaped(layout.name))</span></label>
                """
        }
        return """
            <fieldset class="layouts" id="layouts"><legend>Start (seeks meet the same start)</legend>\(choices.joined())</fieldset>
            """
    }

    /// The board as 49 cells, rank 7 first, each `x`, `o`, `b` (a blocker) or empty.
    static func picture(_ position: Position) -> String {
        var cells = ""
        for rank in (0..<7).reversed() {
            for file in 0..<7 {
                let square = Square(file: file, rank: rank)!
                let kind = position[square]?.rawValue ?? (position.blockers.contains(square) ? "b" : "")
                cells += kind.isEmpty ? "<i></i>" : "<i class=\"\(kind)\"></i>"
            }
        }
        return "<span class=\"layout-picture\" aria-hidden=\"true\">\(cells)</span>"
    }
}
