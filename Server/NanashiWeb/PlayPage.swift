import NanashiCore
import NanashiProtocol

/// `/play`: log in or register, pick a time control and a start, seek a person, play the computer
/// at a level and colour or challenge a friend (or refuse all challenges), and play; the script
/// does the rest over `/ws`. The password goes only over that socket, never in a form submission.
enum PlayPage {
    /// The time controls offered.
    static let controls = [
        TimeControl(initial: 60, increment: 0), TimeControl(initial: 180, increment: 2),
        TimeControl(initial: 300, increment: 3), TimeControl(initial: 600, increment: 5),
        TimeControl(initial: 900, increment: 10),
    ]

    /// The level selected at first (`Level.suggested`, which this module does not import; a test
    /// keeps them the same).
    static let defaultLevel = 8

    /// The page offering the engine's `levels` (as the source lists them); with `invitation`,
    /// the challenge by link it was opened for, to accept once logged in.
    static func html(levels: [LevelEntry], invitation: ChallengeNotice? = nil) -> String {
        // The ratings say which end is which: "(about 500)" is the easiest, and a longer note
        // would not fit the select beside the side's.
        let levelOptions = levels.map { entry in
            let selected = entry.level == defaultLevel ? " selected" : ""
            return "<option value=\"\(entry.level)\"\(selected)>\(entry.level) (about \(entry.elo))</option>"
        }
        let options = controls.map { control in
            let selected = control == TimeControl(initial: 300, increment: 3) ? " selected" : ""
            return "<option value=\"\(control.initial)+\(control.increment)\"\(selected)>\(control)</option>"
        }
        let body = """
            <section class="play">
            \(invitation.map(Self.invitationLine) ?? "")
            <p class="status" id="status" role="status" aria-live="polite">connecting…</p>
            <p class="result" id="result" aria-live="polite"></p>
            <div class="play-area">
            <div id="table" hidden>
            <div class="clocks"><div class="clock" id="clock-top"><span class="disc" id="disc-top"></span> <span class="name" id="name-top"></span> <span class="time" id="time-top"></span></div></div>
            \(GamePage.boardArea)
            <div class="clocks"><div class="clock" id="clock-bottom"><span class="disc" id="disc-bottom"></span> <span class="name" id="name-bottom"></span> <span class="time" id="time-bottom"></span></div></div>
            <div class="buttons"><button type="button" class="secondary" id="resign-button">Resign</button> <button type="button" class="secondary" id="draw-button">Offer a draw</button> <button type="button" class="secondary" id="decline-draw-button" hidden>Decline</button> <button type="button" class="secondary" id="takeback-button" hidden>Take back</button> <button type="button" class="secondary" id="decline-takeback-button" hidden>Keep the move</button> <button type="button" id="rematch-button" hidden>Rematch</button> <button type="button" class="secondary" id="again-button" hidden>New opponent</button> <a id="review-link" class="review" hidden>Review the game</a></div>
            </div>
            <div class="side">
            <form id="login" class="panel" method="post" action="/play" hidden>
            <h1>Play Ataxx online</h1>
            <p class="quiet">Log in, or pick a name and a password to register.</p>
            <label for="login-name">Name</label>
            <input id="login-name" autocomplete="username" minlength="3" maxlength="20" pattern="[A-Za-z0-9_\\-]{3,20}" required>
            <label for="login-password">Password</label>
            <input id="login-password" type="password" autocomplete="current-password" minlength="8" required>
            <div class="buttons"><button type="submit" id="login-button">Log in</button> <button type="button" class="secondary" id="register-button">Register</button></div>
            </form>
            <div id="lobby" class="panel" hidden>
            <p>Playing as <strong id="me"></strong> <span class="quiet" id="my-rating"></span> <button type="button" class="link" id="logout-button">log out</button></p>
            <label for="control">Time control (minutes + seconds a move)</label>
            <select id="control">\(options.joined())</select>
            \(LayoutPicker.html)
            <div class="buttons"><button type="button" id="seek-button">Find an opponent</button> <button type="button" class="secondary" id="cancel-button" hidden>Cancel</button></div>
            <h2 id="computer">Play the computer</h2>
            <p class="quiet">Unrated, at once, at the time control and start above.</p>
            <div class="pair">
            <div><label for="ai-level">Level</label>
            <select id="ai-level">\(levelOptions.joined())</select></div>
            <div><label for="ai-color">Your side</label>
            <select id="ai-color"><option value="">random</option><option value="x">x (moves first)</option><option value="o">o</option></select></div>
            </div>
            <div class="buttons"><button type="button" id="ai-button">Play the computer</button></div>
            <h2 id="friend">Play a friend</h2>
            <p class="quiet">They see your challenge wherever they play, at the time control and start above.</p>
            <div class="pair">
            <div><label for="friend-name">Their name</label>
            <input id="friend-name" minlength="3" maxlength="20" pattern="[A-Za-z0-9_\\-]{3,20}"></div>
            <div><label for="friend-rated">Game</label>
            <select id="friend-rated"><option value="true">rated</option><option value="false">casual</option></select></div>
            </div>
            <div class="buttons"><button type="button" id="challenge-button">Challenge</button></div>
            <label class="check"><input type="checkbox" id="accept-challenges" checked> Accept challenges</label>
            <div id="challenges"></div>
            </div>
            </div>
            </div>
            </section>
            """
        return page(
            title: "Play", body: body, pageKind: "play",
            data: invitation.map { PageData(mode: "challenge", invitation: Reply(.challenged($0))) },
            showsEnds: true)
    }

    /// `, from cross` (or the FEN) for a challenge from another start than the standard one.
    private static func start(_ notice: ChallengeNotice) -> String {
        if let custom = notice.terms.custom { return ", from \(custom.fen)" }
        return notice.terms.layout.isStandard ? "" : ", from \(notice.terms.layout.name)"
    }

    /// What an invitation says before its page logs in.
    private static func invitationLine(_ notice: ChallengeNotice) -> String {
        let side = notice.terms.challengedSide.map { ", you play \($0)" } ?? ""
        let who = escaped(notice.player ?? "someone")
        return
            "<p class=\"result\" id=\"invitation\"><strong>\(who)</strong> (\(notice.rating ?? 0)) challenges you: "
            + "\(notice.terms.control), \(notice.terms.rated ? "rated" : "casual")\(escaped(start(notice)))\(side). "
            + "Log in or register, then accept it.</p>"
    }
}
