/// The one script and the one stylesheet of the pages, embedded in the executable when it is built
/// (no bundle beside it): the stylesheet is `Resources/nanashi.css`; the script, served as one file
/// at `/static/nanashi.js`, is the files of `Resources/script` joined in the order of their names.
///
/// The script is the board, the clocks and the protocol's socket (`/ws`), with no dependencies
/// and no build step. Its parts are cut at line boundaries and a part alone may not parse (the
/// first opens a function the last closes), so `.ci/run` checks the whole with `node --check`.
enum Assets {
    /// The parts of the script in the order they are joined, each with its file's name; the names
    /// sort in that order, so that `cat Resources/script/*.js` is the script too.
    static let scriptParts: [(name: String, bytes: [UInt8])] = [
        // Opens the script's function; the page's data; squares, positions and the marks of a move.
        ("part1-start.js", PackageResources.part1_start_js),
        // The board of buttons drawn, and the text of the counts and the clocks.
        ("part2-board.js", PackageResources.part2_board_js),
        // The socket to the server that reconnects by itself, the clocks as told, the end of a game.
        ("part3-live.js", PackageResources.part3_live_js),
        // The page of a game: a finished one stepped through, one in progress watched.
        ("part4-game.js", PackageResources.part4_game_js),
        // The page to play on: logging in, seeking, playing, rematches.
        ("part5-play.js", PackageResources.part5_play_js),
        // Starts what the page is, and closes the script's function.
        ("part6-end.js", PackageResources.part6_end_js),
    ]

    /// The script's parts joined, as served: assembled once.
    static let script: [UInt8] = scriptParts.flatMap(\.bytes)

    static var stylesheet: [UInt8] { PackageResources.nanashi_css }
}
