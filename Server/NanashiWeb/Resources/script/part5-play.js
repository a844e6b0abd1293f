  // MARK: /play: logging in, seeking, playing, rematches.
  function play() {
    var TOKEN = 'nanashi.token';
    var board = new Board(document.getElementById('board'), clicked);
    var clocks = new Clocks();
    var me = null;
    var game = null;
    var seeking = false;
    // A seek for the computer is on its way: its `seeking` is followed at once by `start`.
    var seekingEngine = false;
    // Moves sent on this page, for their ids.
    var movesSent = 0;
    var superseded = false;
    // The invitation this page was opened for (/challenge/ID), shown once logged in.
    var invitationShown = false;
    var show = function (id, visible) { document.getElementById(id).hidden = !visible; };
    var status = function (text) { setText('status', text); };

    var link = new Link({
      open: function () {
        var token = localStorage.getItem(TOKEN);
        if (token) {
          status('logging in…');
          link.send({ type: 'auth', token: token });
        } else {
          showLogin();
        }
      },
      closed: function () {
        // Before logging in, the server closes a quiet connection after a while: the page
        // reconnects without a word, and the form stays as it was.
        if (superseded) {
          status('You logged in somewhere else; this page stopped.');
        } else if (me || game) {
          status('connection lost; reconnecting…');
        }
      },
      message: received
    });

    function showLogin() {
      var form = document.getElementById('login');
      if (!form.hidden) { return; }
      status('');
      show('login', true);
      show('lobby', false);
      document.getElementById('login-name').focus();
    }

    function credentials(type) {
      var name = document.getElementById('login-name').value.trim();
      var password = document.getElementById('login-password').value;
      if (!link.send({ type: type, name: name, password: password })) { status('not connected yet; try again'); return; }
      status(type === 'register' ? 'registering…' : 'logging in…');
    }
    document.getElementById('login').addEventListener('submit', function (event) {
      event.preventDefault();
      credentials('login');
    });
    document.getElementById('register-button').onclick = function () {
      var form = document.getElementById('login');
      if (form.reportValidity()) { credentials('register'); }
    };
    document.getElementById('logout-button').onclick = function () {
      link.send({ type: 'logout' });
      localStorage.removeItem(TOKEN);
    };
    document.getElementById('seek-button').onclick = seek;
    document.getElementById('again-button').onclick = function () {
      if (game && game.engine) { seekEngine(); } else { seek(); }
    };
    document.getElementById('ai-button').onclick = seekEngine;
    document.getElementById('cancel-button').onclick = function () { link.send({ type: 'cancel' }); };
    document.getElementById('resign-button').onclick = function () {
      if (game && !game.over && confirm('Resign this game?')) { link.send({ type: 'resign', game: game.id }); }
    };
    document.getElementById('draw-button').onclick = function () {
      if (game && !game.over) { link.send({ type: 'draw', game: game.id }); }
    };
    document.getElementById('decline-draw-button').onclick = function () {
      if (game && !game.over) { link.send({ type: 'decline_draw', game: game.id }); }
    };
    // Takebacks are for casual games (`start` and `game` say "rated":false): the button shows
    // only in those, and not against the computer, which never answers one.
    document.getElementById('takeback-button').onclick = function () {
      if (game && !game.over) { link.send({ type: 'takeback', game: game.id }); }
    };
    document.getElementById('decline-takeback-button').onclick = function () {
      if (game && !game.over) { link.send({ type: 'decline_takeback', game: game.id }); }
    };
    // The start the picker has checked: the standard one is sent as no layout.
    function chosenLayout() {
      var checked = document.querySelector('input[name="layout"]:checked');
      return checked && checked.value !== 'standard' ? checked.value : null;
    }
    // Come from a player's page ("Challenge NAME"): their name is filled in, to challenge them;
    // from the engine's ("Play AI level N"), its level is picked.
    var challenged = new URLSearchParams(location.search).get('challenge');
    if (challenged) { document.getElementById('friend-name').value = challenged; }
    var wantedLevel = new URLSearchParams(location.search).get('level');
    if (wantedLevel && document.querySelector('#ai-level option[value="' + parseInt(wantedLevel, 10) + '"]')) {
      document.getElementById('ai-level').value = String(parseInt(wantedLevel, 10));
    }
    document.getElementById('challenge-button').onclick = function () {
      var parts = document.getElementById('control').value.split('+');
      var name = document.getElementById('friend-name').value.trim();
      var message = { type: 'challenge', initial: parseInt(parts[0], 10), increment: parseInt(parts[1], 10),
                      rated: document.getElementById('friend-rated').value === 'true' };
      // Without a name, a link for whoever opens it first.
      if (name) { message.to = name; }
      if (chosenLayout()) { message.layout = chosenLayout(); }
      link.send(message);
    };
    // Whether others may challenge this player, stored with the account: `welcome` says it, and
    // `challenges` answers a change.
    var acceptChallenges = document.getElementById('accept-challenges');
    acceptChallenges.onchange = function () {
      if (!link.send({ type: 'challenges', accept: acceptChallenges.checked })) {
        acceptChallenges.checked = !acceptChallenges.checked;
        status('not connected yet; try again');
      }
    };

    // The challenges standing for this player and theirs, each a line with its buttons.
    function challengeLine(message, mine) {
      var line = document.createElement('p');
      line.id = 'challenge-' + message.challenge;
      line.dataset.player = mine ? (message.to || '') : message.from;
      var terms = (message.initial / 60) + '+' + message.increment + ', ' + (message.rated ? 'rated' : 'casual') +
        (message.layout ? ', from ' + message.layout : message.fen ? ', from ' + message.fen : '') +
        (message.color === 'random' ? '' : ', you play ' + message.color);
      var who = mine ? (message.to ? 'You challenged ' + message.to : 'Send this link to a friend: ' + location.origin +
        message.link) : message.from + ' (' + message.rating + ') challenges you';
      line.textContent = who + ' (' + terms + ') ';
      // An invitation by link is accepted or left; only the one challenged by name declines.
      var invited = data.invitation && data.invitation.challenge === message.challenge;
      var buttons = mine ? [['Cancel', { type: 'cancel_challenge', challenge: message.challenge }]]
        : [['Accept', { type: 'accept', challenge: message.challenge }]].concat(
          invited ? [] : [['Decline', { type: 'decline', challenge: message.challenge }]]);
      buttons.forEach(function (pair) {
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'secondary';
        button.textContent = pair[0];
        button.onclick = function () { link.send(pair[1]); };
        line.appendChild(button);
        line.appendChild(document.createTextNode(' '));
      });
      var old = document.getElementById(line.id);
      if (old) { old.remove(); }
      document.getElementById('challenges').appendChild(line);
    }

    function challengeEnded(id) {
      var line = document.getElementById('challenge-' + id);
      if (line) { line.remove(); }
    }

    function offerButtons(offered) {
      var button = document.getElementById('draw-button');
      setText('draw-button', offered ? 'Accept the draw' : 'Offer a draw');
      button.classList.toggle('offered', offered);
      show('decline-draw-button', offered);
    }

    function takebackButtons(offered) {
      var button = document.getElementById('takeback-button');
      setText('takeback-button', offered ? 'Allow the takeback' : 'Take back');
      button.classList.toggle('offered', offered);
      show('takeback-button', !!(game && game.casual && !game.over));
      show('decline-takeback-button', offered);
    }

    document.getElementById('rematch-button').onclick = function () {
      if (game && game.over) { link.send({ type: 'rematch', game: game.id }); }
    };

    function seek() {
      var parts = document.getElementById('control').value.split('+');
      var message = { type: 'seek', initial: parseInt(parts[0], 10), increment: parseInt(parts[1], 10) };
      if (chosenLayout()) { message.layout = chosenLayout(); }
      link.send(message);
    }

    function seekEngine() {
      var parts = document.getElementById('control').value.split('+');
      var message = { type: 'seek', ai: parseInt(document.getElementById('ai-level').value, 10),
                      initial: parseInt(parts[0], 10), increment: parseInt(parts[1], 10) };
      var color = document.getElementById('ai-color').value;
      if (color) { message.color = color; }
      if (chosenLayout()) { message.layout = chosenLayout(); }
      if (link.send(message)) { seekingEngine = true; }
    }

    function lobby() {
      show('login', false);
      show('lobby', !game || game.over);
      show('seek-button', !seeking);
      show('cancel-button', seeking);
      show('ai-button', !seeking);
      document.getElementById('control').disabled = seeking;
    }

    function received(message) {
      switch (message.type) {
        case 'welcome':
          me = message;
          localStorage.setItem(TOKEN, message.token);
          document.getElementById('login-password').value = '';
          setText('me', message.name);
          setText('my-rating', message.rating + ' ± ' + message.rd);
          acceptChallenges.checked = message.challenges !== false;
          if (!game || game.over) { status('Pick a time control and find an opponent.'); }
          if (data.invitation && !invitationShown) {
            invitationShown = true;
            challengeLine(data.invitation, false);
            status('Accept the challenge below to play it.');
          }
          if (game && !game.over) {
            // Back after a drop in the middle of a game: the server sends the game next if it
            // goes on. If the answer to this ping comes first, it ended while we were away.
            game.awaitingState = true;
            link.send({ type: 'ping', id: 'game-check' });
          }
          lobby();
          break;
        case 'pong':
          if (message.id === 'game-check' && game && !game.over && game.awaitingState) {
            game.over = true;
            clocks.running = null;
            setText('result', 'The game ended while you were away: its page has the result.');
            status('');
            finished();
          }
          break;
        case 'bye':
          me = null;
          game = null;
          show('table', false);
          showLogin();
          break;
        case 'seeking':
          seeking = true;
          status(seekingEngine ? 'Starting a game against the computer…' : 'Waiting for an opponent…');
          lobby();
          break;
        case 'cancelled':
          seeking = false;
          status('Seek cancelled.');
          lobby();
          break;
        case 'start':
          seeking = false;
          seekingEngine = false;
          begin(message, [], { x: message.initial * 1000, o: message.initial * 1000 });
          break;
        case 'game':
          if (message.color) {
            seeking = false;
            begin(message, message.moves || [], message.clock);
          }
          break;
        case 'moved':
          if (game && message.game === game.id) {
            game.board = parseFen(message.fen);
            game.marks = landing(message.move, message.converted);
            game.last = message.move;
            game.legal = message.legal || null;
            game.selected = -1;
            game.sent = false;
            clocks.set(message.clock, game.board.side);
            // A move lets a draw offer (or a takeback asked) to its mover lapse.
            offerButtons(false);
            takebackButtons(false);
            turn();
          }
          break;
        case 'end':
          if (game && message.game === game.id) {
            game.over = true;
            clocks.running = null;
            var text = endText(message);
            if (message.outcome.reason !== 'aborted' && message.outcome.winner !== null) {
              text += message.outcome.winner === game.color ? ' — you win' : ' — you lose';
            }
            if (game.engine) {
              text += ' (unrated)';
            } else if (message.rating) {
              var change = Math.round(message.rating.after - message.rating.before);
              text += '; rating ' + Math.round(message.rating.before) + ' → ' + Math.round(message.rating.after) +
                ' (' + (change >= 0 ? '+' : '') + change + ')';
              if (me) { setText('my-rating', Math.round(message.rating.after)); }
            }
            setText('result', text);
            status('');
            finished();
          }
          break;
        case 'draw_offer':
          status('Your opponent offers a draw.');
          offerButtons(true);
          break;
        case 'draw_offered':
          status('Draw offered; it stands until your opponent answers or moves.');
          break;
        case 'takeback_offer':
          status('Your opponent asks to take back their last move.');
          takebackButtons(true);
          break;
        case 'takeback_offered':
          status('Takeback asked; it stands until your opponent answers or moves.');
          break;
        case 'takeback_declined':
          status(message.id === undefined ? 'Your opponent kept the move.' : 'Takeback declined.');
          takebackButtons(false);
          break;
        case 'draw_declined':
          status(message.id === undefined ? 'Your opponent declined the draw.' : 'Draw declined.');
          offerButtons(false);
          break;
        case 'challenge_sent':
          challengeLine(message, true);
          status(message.to ? 'Challenge sent to ' + message.to + '.' : 'Your challenge link is ready.');
          break;
        case 'challenged':
          challengeLine(message, false);
          status(message.from + ' challenges you.');
          break;
        case 'challenge_declined':
          challengeEnded(message.challenge);
          status('Challenge declined' + (message.reason ? ': ' + message.reason : '') + '.');
          break;
        case 'challenge_cancelled':
          challengeEnded(message.challenge);
          status('A challenge ended (' + message.reason + ').');
          break;
        case 'challenges':
          acceptChallenges.checked = message.accept;
          status(message.accept ? 'Others may challenge you again.' : 'Nobody can challenge you now.');
          break;
        case 'rematch_offer':
          status('Your opponent offers a rematch.');
          document.getElementById('rematch-button').classList.add('offered');
          break;
        case 'rematch_offered':
          status('Rematch offered; waiting for your opponent…');
          break;
        case 'rematch_declined':
          status('The rematch offer lapsed.');
          show('rematch-button', false);
          break;
        case 'superseded':
          superseded = true;
          link.stop();
          status('You logged in somewhere else; this page stopped.');
          break;
        case 'shutdown':
          status('The server is restarting; reconnecting…');
          break;
        case 'error':
          if (message.code === 'idle_timeout' && !me) { break; }
          if (message.code === 'bad_credentials' && !me) {
            localStorage.removeItem(TOKEN);
            show('login', true);
          }
          if (seekingEngine && !game) { seekingEngine = false; }
          if (message.code === 'not_your_turn' || message.code === 'illegal_move') {
            if (game) { game.sent = false; game.selected = -1; turn(); }
          } else if (game && game.sent && message.id === game.moveID) {
            // The move was not taken (not stored, or too many messages): play it again, and a
            // forced pass goes again by itself after a second, not at once.
            game.sent = false;
            game.selected = -1;
            setTimeout(turn, 1000);
          }
          status(message.message);
          break;
      }
    }

    // The opponent's name and rating; the engine's player at its level's strength as the level
    // list gives it ('AI level 3, about 780'), since the server shows it at an unrated 1500.
    function opponentLabel(opponent) {
      var level = engineLevel(opponent);
      var option = level && document.querySelector('#ai-level option[value="' + level + '"]');
      var about = option && /\((about \d+)\)/.exec(option.textContent);
      return opponent.name + (about ? ', ' + about[1] : ' ' + opponent.rating);
    }

    // A game begins or goes on, from its `start` or `game` (`legal`: the player's legal moves when
    // it is their turn, as the server sent them; none otherwise).
    function begin(message, moves, clock) {
      var color = message.color;
      var opponent = message.opponent;
      var board = parseFen(message.fen);
      var lastMove = moves.length ? moves[moves.length - 1] : null;
      game = { id: message.game, color: color, opponent: opponent, board: board, marks: landing(lastMove),
               last: lastMove, legal: message.legal || null, selected: -1, sent: false, over: false,
               engine: engineLevel(opponent) !== null, casual: message.rated === false };
      clocks.set(clock, board.side);
      var other = color === 'x' ? 'o' : 'x';
      document.getElementById('disc-top').className = 'disc ' + other;
      document.getElementById('disc-bottom').className = 'disc ' + color;
      setText('name-top', opponentLabel(opponent));
      setText('name-bottom', (me ? me.name : 'you') + ' (you)');
      document.getElementById('rematch-button').classList.remove('offered');
      setText('result', '');
      show('table', true);
      show('resign-button', true);
      show('draw-button', !game.engine);
      // The challenge between the two, accepted, stands no more.
      Array.prototype.forEach.call(document.querySelectorAll('#challenges p'), function (line) {
        if (line.dataset.player === opponent.name) { line.remove(); }
      });
      offerButtons(false);
      takebackButtons(false);
      show('rematch-button', false);
      show('again-button', false);
      show('review-link', false);
      lobby();
      turn();
    }

    function finished() {
      show('resign-button', false);
      show('draw-button', false);
      show('decline-draw-button', false);
      show('takeback-button', false);
      show('decline-takeback-button', false);
      show('rematch-button', true);
      show('again-button', true);
      setText('again-button', game.engine ? 'New game' : 'New opponent');
      var review = document.getElementById('review-link');
      review.href = '/game/' + game.id;
      show('review-link', true);
      lobby();
      redraw();
    }

    // The server sends `legal` only to the player whose turn it is.
    function myTurn() { return game && !game.over && game.legal !== null; }

    // The targets of the piece on `index`, from the legal moves: the jumps that start on it, and
    // the clones to a square next to it (a clone is written by its destination alone).
    function targetsOf(index) {
      var targets = {};
      game.legal.forEach(function (move) {
        if (move.length === 4 && move !== '0000' && indexOf(move.slice(0, 2)) === index) {
          targets[indexOf(move.slice(2))] = 'jump';
        } else if (move.length === 2 && touching(index, indexOf(move))) {
          targets[indexOf(move)] = 'clone';
        }
      });
      return targets;
    }

    function turn() {
      if (game && !game.over) {
        if (myTurn()) {
          if (game.legal.length === 0) {
            // The game is over by the rules: the server's 'end' is on its way.
            status('');
          } else if (game.legal.length === 1 && game.legal[0] === '0000') {
            if (!game.sent) { sendMove('0000'); }
            status('You have no move: passing.');
          } else {
            status('Your move: click a piece, then where it goes.');
          }
        } else {
          status(game.opponent.name + ' to move…');
        }
      }
      redraw();
    }

    function redraw() {
      if (!game) { return; }
      var targets = game.selected >= 0 && myTurn() ? targetsOf(game.selected) : null;
      board.draw({ board: game.board, marks: game.marks, selected: game.selected, targets: targets });
      setText('counts', countsText(game.board, game.last));
      tick();
    }

    function clicked(index) {
      if (!myTurn() || game.sent) { return; }
      var cell = game.board.cells[index];
      if (cell === game.color) {
        game.selected = game.selected === index ? -1 : index;
        redraw();
        return;
      }
      if (game.selected < 0) { return; }
      var kind = targetsOf(game.selected)[index];
      if (!kind) { game.selected = -1; redraw(); return; }
      var move = kind === 'clone' ? name(index) : name(game.selected) + name(index);
      if (sendMove(move)) { status('…'); }
    }

    // Sends a move with an id of its own, so that an error about it is known for one.
    function sendMove(move) {
      movesSent += 1;
      game.moveID = 'move-' + movesSent;
      game.sent = link.send({ type: 'move', game: game.id, move: move, id: game.moveID });
      return game.sent;
    }

    function tick() {
      if (!game) { return; }
      var other = game.color === 'x' ? 'o' : 'x';
      setText('time-top', clockText(clocks.read(other)));
      setText('time-bottom', clockText(clocks.read(game.color)));
      document.getElementById('clock-top').classList.toggle('running', clocks.running === other);
      document.getElementById('clock-bottom').classList.toggle('running', clocks.running === game.color);
      var low = clocks.read(game.color) < 10000 && clocks.running === game.color;
      document.getElementById('clock-bottom').classList.toggle('low', low);
    }
    setInterval(tick, 100);
    link.connect();
  }

