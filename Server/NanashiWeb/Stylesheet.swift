/// The one stylesheet of the pages.
enum Stylesheet {
    static let text = #"""
        /* Nanashi: one stylesheet for every page. */
        :root {
          --ink: #1d232b; --paper: #f6f4ef; --panel: #ffffff; --line: #d9d4c7; --quiet: #6b7078;
          --accent: #2f6f4f; --square: #e9e1cc; --square-dark: #dccfae; --blocker: #4b4f57;
          --x: #c8372d; --o: #2457b8; --mark: #f2b705; --target: #3f9b6b;
        }
        * { box-sizing: border-box; }
        html { font-size: 16px; }
        body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); line-height: 1.45; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--mark); outline-offset: 2px; }
        header.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.6rem 1rem; background: var(--ink); color: #fff; }
        header.top a { color: #fff; text-decoration: none; margin-left: 1rem; }
        header.top .brand { font-weight: 700; font-size: 1.2rem; margin-left: 0; letter-spacing: 0.02em; }
        main { max-width: 52rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 1.5rem; margin: 0.2rem 0 0.6rem; }
        h2 { font-size: 1.15rem; margin: 1.4rem 0 0.5rem; }
        .quiet { color: var(--quiet); }
        .notice { background: #fff3cd; border: 1px solid #e6d28a; padding: 0.4rem 0.7rem; border-radius: 6px; }
        .badge { font-size: 0.8rem; vertical-align: middle; background: var(--x); color: #fff; border-radius: 4px; padding: 0.1rem 0.4rem; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
        th, td { padding: 0.4rem 0.6rem; text-align: left; border-bottom: 1px solid var(--line); white-space: nowrap; }
        th { font-size: 0.85rem; color: var(--quiet); font-weight: 600; }
        tbody tr:last-child td { border-bottom: 0; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        .provisional { color: var(--quiet); text-decoration: none; cursor: help; }
        .pager { color: var(--quiet); font-size: 0.9rem; }
        .pager a { margin-left: 0.8rem; }
        .result.won { color: var(--accent); font-weight: 600; }
        .result.lost { color: var(--x); }
        .search form { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
        .search label { font-weight: 600; }
        input, select, button { font: inherit; }
        input, select { padding: 0.45rem 0.6rem; border: 1px solid #b9b3a3; border-radius: 6px; background: #fff; min-width: 0; }
        button { padding: 0.45rem 0.9rem; border: 1px solid var(--accent); border-radius: 6px; background: var(--accent); color: #fff; cursor: pointer; }
        button[hidden] { display: none; }
        button.secondary { background: var(--panel); color: var(--accent); }
        .steps button { min-width: 2.6rem; font-size: 1.15rem; line-height: 1; }
        button:disabled { opacity: 0.6; cursor: default; }
        button.link { background: none; border: 0; color: var(--accent); padding: 0; text-decoration: underline; }
        button.offered { background: var(--mark); border-color: var(--mark); color: var(--ink); animation: pulse 1s ease-in-out infinite alternate; }
        @keyframes pulse { to { box-shadow: 0 0 0 4px rgba(242, 183, 5, 0.35); } }
        .buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.7rem 0; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; margin: 0.8rem 0; max-width: 26rem; }
        .panel > :first-child { margin-top: 0; }
        .panel label { display: block; font-weight: 600; margin: 0.6rem 0 0.2rem; }
        .panel input, .panel select { width: 100%; }
        .status { min-height: 1.5em; font-weight: 600; margin: 0.4rem 0; }
        .play .result { font-weight: 700; font-size: 1.05rem; margin: 0.2rem 0 0.5rem; }
        .play .result:empty { display: none; }
        .play-area { display: flex; flex-wrap: wrap; gap: 0 1.5rem; align-items: flex-start; }
        .play-area #table { flex: 0 1 30rem; min-width: 0; }
        .play-area .side { flex: 1 1 16rem; max-width: 26rem; }
        .play-area .panel { margin-top: 0; }
        .disc { display: inline-block; width: 0.85em; height: 0.85em; border-radius: 50%; vertical-align: -0.05em; }
        .disc.x { background: var(--x); }
        .disc.o { background: var(--o); }
        /* The board: rank numbers on the left, file letters below, squares as buttons. */
        .board-wrap { width: min(100%, 30rem); margin: 0.5rem 0; }
        .board { display: grid; grid-template-columns: 1.3rem repeat(7, 1fr); gap: 3px; }
        .board .coord { display: flex; align-items: center; justify-content: center; font-size: 0.8rem; color: var(--quiet); }
        .board .coord.file { height: 1.3rem; }
        .square { position: relative; aspect-ratio: 1; padding: 0; border: 0; border-radius: 5px; background: var(--square); color: inherit; display: flex; align-items: center; justify-content: center; cursor: default; }
        .square:nth-of-type(2n) { background: var(--square-dark); }
        .square:disabled { opacity: 1; }
        .square.blocker { background: var(--blocker) repeating-linear-gradient(45deg, transparent 0 6px, rgba(255,255,255,0.08) 6px 12px); }
        .piece { width: 78%; height: 78%; border-radius: 50%; display: flex; align-items: center; justify-content: center; color: rgba(255,255,255,0.85); font-weight: 700; font-size: clamp(0.7rem, 3vw, 1.1rem); box-shadow: inset 0 -3px 0 rgba(0,0,0,0.25); }
        .piece.x { background: var(--x); }
        .piece.o { background: var(--o); }
        /* As the terminal marks them: [x] where the last move landed, [.] the square a jump left, (x) converted pieces. */
        .square.last-to { box-shadow: inset 0 0 0 4px var(--mark); }
        .square.last-from { box-shadow: inset 0 0 0 3px var(--mark); background-image: radial-gradient(circle, var(--mark) 0 12%, transparent 13%); }
        .square.converted .piece { outline: 3px dashed var(--mark); outline-offset: 2px; }
        .square.selected { box-shadow: inset 0 0 0 4px var(--target); }
        .square.clone-target::after, .square.jump-target::after { content: ""; position: absolute; border-radius: 50%; }
        .square.clone-target::after { width: 34%; height: 34%; background: var(--target); opacity: 0.85; }
        .square.jump-target::after { width: 34%; height: 34%; border: 3px solid var(--target); }
        .square.clone-target, .square.jump-target, .square:has(.piece) { cursor: pointer; }
        .counts { color: var(--quiet); margin: 0.2rem 0; font-variant-numeric: tabular-nums; }
        .clocks { display: flex; gap: 0.6rem; flex-wrap: wrap; width: min(100%, 30rem); }
        .clock { flex: 1; display: flex; align-items: center; gap: 0.4rem; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.35rem 0.7rem; min-width: 10rem; }
        .clock .name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .clock .time { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
        .clock.running { border-color: var(--accent); box-shadow: 0 0 0 2px var(--accent); }
        .clock.low .time { color: var(--x); }
        .steps { display: flex; align-items: center; gap: 0.5rem; margin: 0.5rem 0; flex-wrap: wrap; }
        .steps #ply { min-width: 8rem; text-align: center; font-variant-numeric: tabular-nums; }
        .moves { display: flex; flex-wrap: wrap; gap: 0.25rem; padding-left: 0; list-style: none; counter-reset: ply; }
        .moves li { counter-increment: ply; }
        .moves .ply { background: var(--panel); color: var(--ink); border-color: var(--line); padding: 0.15rem 0.45rem; font-size: 0.9rem; }
        .moves .ply::before { content: counter(ply) ". "; color: var(--quiet); }
        .moves .ply.current { background: var(--mark); border-color: var(--mark); }
        dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
        dt { color: var(--quiet); }
        dd { margin: 0; }
        @media (max-width: 30rem) {
          main { padding: 0.6rem; }
          header.top a { margin-left: 0.6rem; }
          .clock .time { font-size: 1.3rem; }
        }
        """#
}
