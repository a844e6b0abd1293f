/// The one script and the one stylesheet of the pages: `Resources/nanashi.js` and
/// `Resources/nanashi.css`, embedded in the executable when it is built (no bundle beside it).
///
/// The script is the board, the clocks and the protocol's socket (`/ws`), with no dependencies
/// and no build step; `.ci/run` checks its syntax with `node --check`.
enum Assets {
    static var script: [UInt8] { PackageResources.nanashi_js }
    static var stylesheet: [UInt8] { PackageResources.nanashi_css }
}
