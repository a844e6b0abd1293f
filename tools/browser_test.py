#!/usr/bin/env python3
"""End-to-end test of Nanashi in a real headless browser (Chromium through Selenium).

Starts `nanashi serve --http`, registers a player in the browser at /play, seeks, and plays a
whole game by clicking squares against a scripted opponent that speaks the protocol over TCP;
then finds the result on the leaderboard, the player's page and the game's page; then plays a
whole game against the computer and has the engine analyse it on the game's page; then refuses
challenges, accepts a friend's casual one and takes a move back after a reload, and plays the
computer from a layout. Screenshots of each page go to the folder given by --shots (default
browser-shots/, not committed).

    python3 tools/browser_test.py [--nanashi .build/debug/nanashi] [--shots browser-shots]
"""
import argparse
import json
import os
import shutil
import sqlite3
import socket
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Keeps the last `legal` the page was sent in window.__legal (null when the last start, moved or
# game had none), so the test can compare what the page draws with what the server said.
RECORD_LEGAL = """
(function () {
  var Native = window.WebSocket;
  window.__legal = null;
  function Recorded(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener('message', function (event) {
      try {
        var message = JSON.parse(event.data);
        if ('legal' in message) { window.__legal = message.legal; }
        else if (['start', 'moved', 'game'].indexOf(message.type) >= 0) { window.__legal = null; }
      } catch (error) { }
    });
    return socket;
  }
  Recorded.prototype = Native.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (k) { Recorded[k] = Native[k]; });
  window.WebSocket = Recorded;
})();
"""


def drawn_moves(driver, color):
    """Every move the page offers: each of our pieces selected in turn and its highlighted targets
    read back as moves (a clone by its destination, a jump by its origin and destination)."""
    moves = set()
    for piece in driver.find_elements(By.CSS_SELECTOR, "#board .square .piece.%s" % color):
        square = piece.find_element(By.XPATH, "..")
        origin = square.get_attribute("data-square")
        square.click()
        for target in driver.find_elements(By.CSS_SELECTOR, "#board .square.clone-target"):
            moves.add(target.get_attribute("data-square"))
        for target in driver.find_elements(By.CSS_SELECTOR, "#board .square.jump-target"):
            moves.add(origin + target.get_attribute("data-square"))
        square.click()  # deselect
    return moves


def bot_move(legal):
    """The opponent's move, chosen from the legal moves the server sent (no rules here): the
    first clone, else the first move there is (a jump, or the forced pass 0000)."""
    clones = [move for move in legal if len(move) == 2]
    return (clones or legal)[0]


class Opponent(threading.Thread):
    """A terminal-protocol client over TCP that registers, seeks and plays to the end; then
    offers a rematch and, once it starts, resigns it at once (unrated: no move was made)."""

    def __init__(self, port, name, initial, increment):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=120)
        self.file = self.sock.makefile("r", encoding="utf-8")
        self.name, self.initial, self.increment = name, initial, increment
        self.result = None
        self.rematch = None
        self.log = []
        self.error = None

    def send(self, message):
        self.log.append("> " + json.dumps(message))
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def run(self):
        try:
            self.send({"type": "register", "name": self.name, "password": "password1"})
            self.send({"type": "seek", "initial": self.initial, "increment": self.increment})
            game = None
            last_ping = time.time()
            for line in self.file:
                self.log.append("< " + line.strip())
                message = json.loads(line)
                kind = message["type"]
                if kind == "start" and self.result is not None:
                    game = message["game"]
                    self.send({"type": "resign", "game": game})
                    continue
                # The server sends "legal" to the player whose turn it is, and only to them.
                if kind == "start":
                    game = message["game"]
                    legal = message.get("legal")
                elif kind == "moved" and message["game"] == game:
                    legal = message.get("legal")
                elif kind == "end" and message["game"] == game and self.result is None:
                    self.result = message
                    self.send({"type": "rematch", "game": game})
                    continue
                elif kind == "end" and message["game"] == game:
                    self.rematch = message
                    return
                elif kind == "error" and message["code"] == "no_such_game":
                    continue  # a pass sent as the game ended: the end comes next
                elif kind == "error":
                    raise RuntimeError("opponent got an error: %s" % line)
                else:
                    continue
                if time.time() - last_ping > 20:
                    self.send({"type": "ping"})
                    last_ping = time.time()
                if legal:  # none when it is not our turn, empty once the game is over
                    time.sleep(0.15)  # a person's pace, so the browser's screenshots see the clocks run
                    self.send({"type": "move", "game": game, "move": bot_move(legal)})
        except Exception as error:  # reported by the main thread
            self.error = error


def click_the_first_move(driver, color):
    """Clicks the first of `color`'s pieces that has a target, then that target; False when no
    piece has a move (the page passes itself)."""
    for piece in driver.find_elements(By.CSS_SELECTOR, "#board .square .piece.%s" % color):
        square = piece.find_element(By.XPATH, "..")
        square.click()
        targets = driver.find_elements(By.CSS_SELECTOR, "#board .square.clone-target") or \
            driver.find_elements(By.CSS_SELECTOR, "#board .square.jump-target")
        if targets:
            targets[0].click()
            return True
        square.click()  # deselect
    return False


def click_a_move(driver, color, wait, result):
    """Clicks a move (`click_the_first_move`) and waits for the counts to change or the game to
    end; False when no piece has a move."""
    before = driver.find_element(By.ID, "counts").text
    if not click_the_first_move(driver, color):
        return False
    wait.until(lambda d: d.find_element(By.ID, "counts").text != before
               or result().startswith("Game over"))
    return True


def click_a_move_the_server_cannot_store(driver, color, database, wait, status):
    """With the database's write lock held by another connection (as a long write elsewhere
    would), clicks a move: the server cannot store it and says so, and the page lets the player
    play again (it once waited for a `moved` that never came, until the clock ran out)."""
    lock = sqlite3.connect(database, isolation_level=None)
    try:
        lock.execute("BEGIN IMMEDIATE")
        assert click_the_first_move(driver, color), "no piece with a move"
        wait.until(lambda d: "could not be stored" in status())
    finally:
        lock.execute("ROLLBACK")
        lock.close()


def play_the_computer(driver, base, wait, shot, status, result):
    """From /play (logged in), a whole game against the computer at level 1, clicking as a person
    would; then its page, where the analysis is asked for, drawn, and its mistakes step the board.
    Returns the game's plies."""
    driver.get(base + "/play")
    wait.until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    Select(driver.find_element(By.ID, "control")).select_by_value("180+2")
    Select(driver.find_element(By.ID, "ai-level")).select_by_value("1")
    Select(driver.find_element(By.ID, "ai-color")).select_by_value("x")
    shot("11-play-computer-lobby.png")
    driver.find_element(By.ID, "ai-button").click()
    wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())
    assert driver.find_element(By.ID, "name-top").text == "AI level 1, about 500", driver.find_element(By.ID, "name-top").text
    assert driver.find_element(By.ID, "disc-bottom").get_attribute("class").split()[-1] == "x"
    long_wait = WebDriverWait(driver, 60)
    moves = 0
    while True:
        long_wait.until(lambda d: status().startswith("Your move") or result().startswith("Game over"))
        if result().startswith("Game over"):
            break
        if click_a_move(driver, "x", long_wait, result):
            moves += 1
        else:
            time.sleep(0.5)  # no move: the page passes by itself
        if moves == 6:
            shot("12-play-computer-midgame.png")
    print("against the computer:", result())
    assert "(unrated)" in result(), result()
    shot("13-play-computer-over.png")

    # Its page: no analysis yet, a button asks for it; the graph and the mistakes appear.
    driver.find_element(By.ID, "review-link").click()
    wait.until(lambda d: d.find_element(By.ID, "analyse-button").is_displayed())
    total = int(driver.find_element(By.ID, "ply").text.split()[-1])
    shot("14-game-before-analysis.png")
    driver.find_element(By.ID, "analyse-button").click()
    WebDriverWait(driver, 120).until(lambda d: d.find_element(By.ID, "eval-graph").is_displayed())
    assert "Evaluation after ply %d" % total in driver.find_element(By.ID, "analysis-status").text
    mistakes = driver.find_elements(By.CSS_SELECTOR, "#mistakes .mistake-step")
    dots = driver.find_elements(By.CSS_SELECTOR, "#eval-graph circle.mistake")
    assert len(mistakes) == len(dots), (len(mistakes), len(dots))
    print("analysis: %d plies, %d mistakes" % (total, len(mistakes)))
    if mistakes:
        ply = int(mistakes[0].get_attribute("data-ply"))
        dots[0].click()
        assert driver.find_element(By.ID, "ply").text == "ply %d of %d" % (ply, total)
        assert "was a mistake" in driver.find_element(By.ID, "analysis-status").text
        mistakes[-1].click()
        assert driver.find_element(By.ID, "ply").text == "ply %s of %d" % (
            mistakes[-1].get_attribute("data-ply"), total)
    driver.execute_script("window.scrollTo(0, document.getElementById('board').getBoundingClientRect().top"
                          " + window.scrollY - 10)")
    shot("15-game-analysis.png")
    # Stored: a reload shows it at once, without the button; and on a phone-sized screen.
    driver.set_window_size(412, 915)
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "eval-graph").is_displayed())
    assert not driver.find_element(By.ID, "analyse-button").is_displayed()
    driver.execute_script("document.getElementById('analysis').scrollIntoView()")
    shot("16-game-analysis-phone.png")
    driver.set_window_size(1200, 1000)
    return total


class Friend:
    """A protocol client over TCP that the test reads and writes in turn: a friend of the page's
    player, at a terminal."""

    def __init__(self, port, name):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.file = self.sock.makefile("r", encoding="utf-8")
        self.send({"type": "register", "name": name, "password": "password1"})
        self.until("welcome")

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def until(self, kind):
        """Reads messages until one of type `kind`, which it returns."""
        for line in self.file:
            message = json.loads(line)
            if message["type"] == kind:
                return message
        raise RuntimeError("the server closed the connection before a %s" % kind)

    def close(self):
        self.sock.close()


def play_a_friend(driver, base, tcp_port, wait, shot, status, result):
    """From /play (logged in as browser_ann): refusing challenges with the checkbox (stored, so a
    reload shows it); a friend's casual challenge accepted, whose Take back button stays after a
    reload and takes a move back; then a game against the computer from the layout picked."""
    driver.get(base + "/play")
    wait.until(lambda d: d.find_element(By.ID, "me").text == "browser_ann")
    box = driver.find_element(By.ID, "accept-challenges")
    assert box.is_selected(), "a new player takes challenges"
    friend = Friend(tcp_port, "friend_carl")
    box.click()
    wait.until(lambda d: "Nobody can challenge you" in status())
    challenge = {"type": "challenge", "to": "browser_ann", "initial": 300, "increment": 3, "rated": False,
                 "color": "o"}
    friend.send(challenge)
    refused = friend.until("error")
    assert refused["code"] == "challenge_refused", refused
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "me").text == "browser_ann")
    assert not driver.find_element(By.ID, "accept-challenges").is_selected(), "the refusal was not shown"
    driver.execute_script("document.getElementById('friend').scrollIntoView()")
    shot("17-play-refusing-challenges.png")
    driver.find_element(By.ID, "accept-challenges").click()
    wait.until(lambda d: "Others may challenge you again" in status())

    # A casual challenge, accepted: the page plays x, and may take a move back, even after a reload.
    friend.send(challenge)
    friend.until("challenge_sent")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#challenges p button"))
    driver.execute_script("document.getElementById('challenges').scrollIntoView()")
    shot("18-play-challenged.png")
    accept = [b for b in driver.find_elements(By.CSS_SELECTOR, "#challenges p button") if b.text == "Accept"]
    accept[0].click()
    game = friend.until("start")["game"]
    wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())
    assert driver.find_element(By.ID, "takeback-button").is_displayed(), "no Take back in a casual game"
    driver.refresh()
    wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .piece"))
    wait.until(lambda d: status().startswith("Your move"))
    assert driver.find_element(By.ID, "takeback-button").is_displayed(), "no Take back after a reload"
    before = driver.find_element(By.ID, "counts").text
    assert click_a_move(driver, "x", wait, result), "no move for x at the start"
    friend.until("moved")
    shot("19-play-casual-after-reload.png")
    driver.find_element(By.ID, "takeback-button").click()
    friend.until("takeback_offer")
    friend.send({"type": "takeback", "game": game})
    friend.until("game")
    wait.until(lambda d: d.find_element(By.ID, "counts").text == before)
    wait.until(lambda d: status().startswith("Your move"))
    print("a casual game's move taken back after a reload:", before)
    friend.send({"type": "resign", "game": game})
    wait.until(lambda d: result().startswith("Game over"))
    friend.close()

    # The computer, from the layout picked: the board starts with cross's blockers.
    wait.until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    driver.find_element(By.XPATH, "//input[@name='layout'][@value='cross']/..").click()
    Select(driver.find_element(By.ID, "ai-level")).select_by_value("1")
    Select(driver.find_element(By.ID, "ai-color")).select_by_value("x")
    driver.find_element(By.ID, "ai-button").click()
    wait.until(lambda d: d.find_element(By.ID, "name-top").text == "AI level 1, about 500"
               and status().startswith("Your move"))
    blockers = sorted(square.get_attribute("data-square")
                      for square in driver.find_elements(By.CSS_SELECTOR, "#board .square.blocker"))
    assert blockers == ["b4", "d2", "d6", "f4"], blockers
    # The computer grants a takeback: its reply and the move before it go, and it is x's move again.
    assert driver.find_element(By.ID, "takeback-button").is_displayed(), "no Take back against the computer"
    before = driver.find_element(By.ID, "counts").text
    assert click_a_move(driver, "x", wait, result), "no move for x at cross's start"
    wait.until(lambda d: status().startswith("Your move"))
    driver.find_element(By.ID, "takeback-button").click()
    wait.until(lambda d: d.find_element(By.ID, "counts").text == before and status().startswith("Your move"))
    print("a move against the computer taken back:", before)
    shot("20-play-computer-cross.png")
    driver.find_element(By.ID, "resign-button").click()
    driver.switch_to.alert.accept()
    wait.until(lambda d: result().startswith("Game over"))
    print("against the computer from cross:", result())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nanashi", default=".build/debug/nanashi")
    parser.add_argument("--shots", default="browser-shots")
    parser.add_argument("--keep", action="store_true", help="keep the server's database")
    args = parser.parse_args()

    os.makedirs(args.shots, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="nanashi-browser-")
    tcp_port, http_port = free_port(), free_port()
    server = subprocess.Popen(
        [args.nanashi, "serve", "--port", str(tcp_port), "--http", str(http_port),
         "--db", os.path.join(workdir, "db.sqlite"), "--log-level", "warning"],
        stdout=subprocess.PIPE, text=True)
    driver = None
    opponent = None
    try:
        for _ in range(2):
            line = server.stdout.readline()
            if not line:
                raise RuntimeError("the server did not start")
        base = "http://127.0.0.1:%d" % http_port

        options = Options()
        for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1200,1000", "--force-device-scale-factor=1"]:
            options.add_argument(flag)
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if binary:
            options.binary_location = binary
        driver_path = shutil.which("chromedriver")
        service = Service(driver_path) if driver_path else Service()
        driver = webdriver.Chrome(service=service, options=options)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_LEGAL})
        wait = WebDriverWait(driver, 30)

        def shot(name):
            path = os.path.join(args.shots, name)
            driver.save_screenshot(path)
            print("screenshot", path)

        def status():
            return driver.find_element(By.ID, "status").text

        def result():
            return driver.find_element(By.ID, "result").text

        # Register at /play.
        driver.get(base + "/play")
        wait.until(lambda d: d.find_element(By.ID, "login").is_displayed())
        shot("01-play-login.png")
        driver.find_element(By.ID, "login-name").send_keys("browser_ann")
        driver.find_element(By.ID, "login-password").send_keys("password123")
        driver.find_element(By.ID, "register-button").click()
        wait.until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
        token = driver.execute_script("return localStorage.getItem('nanashi.token')")
        assert token and len(token) == 43, token
        Select(driver.find_element(By.ID, "control")).select_by_value("300+3")
        driver.find_element(By.ID, "seek-button").click()
        wait.until(lambda d: "Waiting" in status())
        shot("02-play-seeking.png")

        opponent = Opponent(tcp_port, "scripted_bob", 300, 3)
        opponent.start()
        wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())
        color = driver.find_element(By.ID, "disc-bottom").get_attribute("class").split()[-1]
        print("browser plays", color)

        # Play by clicking: a piece of ours, then the first highlighted target (clones first).
        clicks = 0
        checked = 0
        watched = False
        refused = False
        long_wait = WebDriverWait(driver, 60)
        while True:
            long_wait.until(lambda d: status().startswith("Your move") or result().startswith("Game over"))
            if result().startswith("Game over"):
                break
            if clicks in (0, 4, 10):
                # The page offers exactly the moves the server sent it (by start, by the game
                # after the reload, by moved): no more, no fewer.
                told = driver.execute_script("return window.__legal")
                drawn = drawn_moves(driver, color)
                assert told and drawn == set(told), (sorted(drawn), told)
                checked += 1
            if clicks == 6 and not refused:
                click_a_move_the_server_cannot_store(
                    driver, color, os.path.join(workdir, "db.sqlite"), wait, status)
                refused = True
                continue
            if click_a_move(driver, color, long_wait, result):
                clicks += 2
            else:
                # No move at all: the page passes by itself.
                time.sleep(0.5)
            if clicks == 4:
                # A reload logs back in with the stored token, and the game goes on.
                driver.refresh()
                wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board .piece"))
                assert driver.find_element(By.ID, "login").get_attribute("hidden") is not None
            if clicks == 10:
                shot("03-play-midgame.png")
                # The same game from a spectator's point of view, on a phone-sized screen.
                game_id = driver.execute_script(
                    "return document.querySelector('#board') && window.location.pathname")
                driver.switch_to.new_window("tab")
                driver.set_window_size(412, 915)
                driver.get(base + "/")
                wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.live a"))
                shot("04-home-live-phone.png")
                driver.find_element(By.CSS_SELECTOR, "table.live td a").click()
                wait.until(lambda d: "x " in d.find_element(By.ID, "counts").text)
                time.sleep(0.5)
                shot("05-game-watch-phone.png")
                driver.close()
                driver.switch_to.window(driver.window_handles[0])
                driver.set_window_size(1200, 1000)
                watched = True
        shot("06-play-game-over.png")
        final = result()
        print("final status:", final)
        assert watched, "the game ended before the watch page was looked at"
        assert refused, "the game ended before a move the server could not store was tried"
        assert checked == 3, "the page's targets were compared with the server's moves %d times" % checked

        # The opponent offers a rematch; the phone-sized play page shows it.
        wait.until(lambda d: "rematch" in status())
        assert driver.find_element(By.ID, "rematch-button").is_displayed()
        driver.set_window_size(412, 915)
        shot("07-play-game-over-phone.png")
        driver.set_window_size(1200, 1000)
        # Accepted: a new game with the colours swapped, which the opponent resigns at once.
        driver.find_element(By.ID, "rematch-button").click()
        wait.until(lambda d: "resigned" in result())
        swapped = driver.find_element(By.ID, "disc-bottom").get_attribute("class").split()[-1]
        assert swapped != color, (swapped, color)
        # Worded as the core words it (Outcome.verdict), which the server gave the page.
        resigned = "o" if swapped == "x" else "x"
        expected = "Game over: %s wins (%s resigned) — you win" % (swapped, resigned)
        assert result().startswith(expected), (result(), expected)
        print("rematch:", result())
        opponent.join(10)
        if opponent.error:
            raise opponent.error
        assert opponent.result is not None and opponent.rematch is not None, "the opponent saw no end"

        # The result on the leaderboard.
        driver.get(base + "/")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.standings tbody tr")
        names = [row.find_elements(By.TAG_NAME, "td")[1].text for row in rows]
        assert "browser_ann" in names and "scripted_bob" in names, names
        winner = opponent.result["outcome"]["winner"]
        expected_first = "draw" if winner is None else ("browser_ann" if winner == color else "scripted_bob")
        if expected_first != "draw":
            assert names[0] == expected_first, (names, expected_first)
        shot("08-home-leaderboard.png")

        # The player's page and the finished game, stepped through with the keyboard.
        driver.find_element(By.LINK_TEXT, "browser_ann").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.games a"))
        shot("09-player.png")
        # The first game (the newest is the resigned rematch, without a move).
        driver.find_element(By.LINK_TEXT, "#%d" % opponent.result["game"]).click()
        wait.until(lambda d: d.find_element(By.ID, "ply").text.startswith("ply"))
        body = driver.find_element(By.TAG_NAME, "body")
        total = int(driver.find_element(By.ID, "ply").text.split()[-1])
        for _ in range(3):
            body.send_keys(Keys.ARROW_LEFT)
        assert driver.find_element(By.ID, "ply").text == "ply %d of %d" % (total - 3, total)
        shot("10-game-replay.png")
        driver.find_element(By.ID, "first").click()
        assert driver.find_element(By.ID, "ply").text == "ply 0 of %d" % total
        href = driver.find_element(By.LINK_TEXT, "Download PGN").get_attribute("href")
        assert href.endswith("/pgn"), href

        engine_plies = play_the_computer(driver, base, wait, shot, status, result)
        play_a_friend(driver, base, tcp_port, wait, shot, status, result)
        print("ok: %d clicks, the targets drawn matched the server's legal moves %d times, %s; "
              "a %d-ply game against the computer analysed; screenshots in %s"
              % (clicks, checked, final, engine_plies, args.shots))
        return 0
    except Exception:
        if driver is not None:
            driver.save_screenshot(os.path.join(args.shots, "failure.png"))
            print("failed; status: %r" % driver.find_element(By.ID, "status").text if
                  driver.find_elements(By.ID, "status") else "failed")
            for entry in driver.get_log("browser"):
                print("console:", entry)
        if opponent is not None:
            print("the opponent's last messages:\n" + "\n".join(opponent.log[-8:]))
        raise
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(10)
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
