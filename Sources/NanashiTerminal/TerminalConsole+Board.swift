extension TerminalConsole {
    /// Writes the board and the lines under it, as `GameLoop.screen` reads.
    public func show(_ table: TableView) {
        write(
            BoardRenderer(color: color).render(
                table.game.current, lastMove: table.game.lastMove, selected: table.selected,
                flipped: table.flipped, labels: table.labels))
    }

    /// Line by line, nothing to wait for.
    public func pace() {}
}
