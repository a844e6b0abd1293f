// Nanashi in the browser: the board, the clocks and the protocol's socket. No dependencies.
// It knows no rules: the server tells the legal moves, the pieces each move turned, a forced
// pass and the end; the script only draws them.
(function () {
  'use strict';
  var FILES = 'abcdefg';
  var page = document.body.dataset.page;
  var dataNode = document.getElementById('page-data');
  var data = dataNode ? JSON.parse(dataNode.textContent) : {};

  function name(index) { return FILES[index % 7] + (Math.floor(index / 7) + 1); }
  function indexOf(square) { return FILES.indexOf(square[0]) + 7 * (parseInt(square.slice(1), 10) - 1); }
  // Whether two squares touch (a clone, written by its destination, comes from any piece next to it).
  function touching(a, b) {
    return a !== b && Math.abs(a % 7 - b % 7) <= 1 && Math.abs(Math.floor(a / 7) - Math.floor(b / 7)) <= 1;
  }

  // A FEN's board as 49 cells from a1 to g7: 'x', 'o', '-' (blocker) or '' (empty), and the side to move.
  function parseFen(fen) {
    var parts = fen.split(' ');
    var cells = new Array(49).fill('');
    var ranks = parts[0].split('/');
    for (var r = 0; r < 7; r++) {
      var file = 0;
      var text = ranks[r] || '';
      for (var i = 0; i < text.length; i++) {
        var c = text[i];
        if (c >= '1' && c <= '9') { file += parseInt(c, 10); continue; }
        cells[(6 - r) * 7 + file] = c;
        file++;
      }
    }
    return { cells: cells, side: parts[1] || 'x' };
  }

  // What the terminal board marks after a move: where it landed, the square a jump left, and the
  // pieces it converted as the server tells them (none known for a game joined in progress).
  function landing(move, converted) {
    var result = { to: -1, from: -1, converted: (converted || []).map(indexOf) };
    if (!move || move === '0000') { return result; }
    result.to = indexOf(move.slice(-2));
    if (move.length === 4) { result.from = indexOf(move.slice(0, 2)); }
    return result;
  }

  function count(board, side) {
    return board.cells.filter(function (c) { return c === side; }).length;
  }

  // The 7x7 board of buttons, rank 7 at the top, with its coordinates.
  function Board(element, onSquare) {
    this.element = element;
    this.squares = [];
    element.textContent = '';
    for (var row = 0; row < 7; row++) {
      var rank = 7 - row;
      var label = document.createElement('span');
      label.className = 'coord rank';
      label.textContent = rank;
      element.appendChild(label);
      for (var file = 0; file < 7; file++) {
        var index = (rank - 1) * 7 + file;
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'square';
        button.dataset.square = name(index);
        button.tabIndex = onSquare ? 0 : -1;
        if (onSquare) {
          button.addEventListener('click', onSquare.bind(null, index));
        } else {
          button.disabled = true;
        }
        element.appendChild(button);
        this.squares[index] = button;
      }
    }
    element.appendChild(document.createElement('span'));
    for (var f = 0; f < 7; f++) {
      var fileLabel = document.createElement('span');
      fileLabel.className = 'coord file';
      fileLabel.textContent = FILES[f];
      element.appendChild(fileLabel);
    }
  }

  // Draws a position with its marks: `view` has board, marks, and optionally selected and targets.
  Board.prototype.draw = function (view) {
    var targets = view.targets || {};
    for (var i = 0; i < 49; i++) {
      var cell = view.board.cells[i];
      var button = this.squares[i];
      var classes = ['square'];
      if (cell === '-') { classes.push('blocker'); }
      var piece = button.firstChild;
      if (cell === 'x' || cell === 'o') {
        if (!piece) { piece = document.createElement('span'); button.appendChild(piece); }
        piece.className = 'piece ' + cell;
        piece.textContent = cell;
      } else if (piece) {
        button.removeChild(piece);
      }
      var label = name(i) + (cell === 'x' || cell === 'o' ? ' ' + cell : cell === '-' ? ' blocked' : ' empty');
      if (view.marks && i === view.marks.to) { classes.push('last-to'); label += ', last move'; }
      if (view.marks && i === view.marks.from) { classes.push('last-from'); label += ', jumped from'; }
      if (view.marks && view.marks.converted.indexOf(i) >= 0) { classes.push('converted'); label += ', converted'; }
      if (view.selected === i) { classes.push('selected'); label += ', selected'; }
      if (targets[i] === 'clone') { classes.push('clone-target'); label += ', clone here'; }
      if (targets[i] === 'jump') { classes.push('jump-target'); label += ', jump here'; }
      button.className = classes.join(' ');
      button.setAttribute('aria-label', label);
    }
  };

  function countsText(board, last) {
    var text = 'x ' + count(board, 'x') + ' · o ' + count(board, 'o');
    if (last) { text += ' · last move ' + last; }
    return text;
  }

  function clockText(ms) {
    ms = Math.max(0, ms);
    var tenths = Math.floor(ms / 100);
    var seconds = Math.floor(tenths / 10);
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    var text = minutes + ':' + (rest < 10 ? '0' : '') + rest;
    return seconds < 20 ? text + '.' + (tenths % 10) : text;
  }

  function setText(id, text) {
    var node = document.getElementById(id);
    if (node) { node.textContent = text; }
  }

  // The protocol's socket at /ws: one JSON message a frame. It reconnects by itself after a
  // drop, waiting longer after each failure, and pings while quiet.
  function Link(handlers) {
    this.handlers = handlers;
    this.delay = 500;
    this.stopped = false;
    this.socket = null;
    this.pinger = null;
  }
  Link.prototype.connect = function () {
    var self = this;
    var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
    var socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = function () {
      self.delay = 500;
      clearInterval(self.pinger);
      self.pinger = setInterval(function () { self.send({ type: 'ping' }); }, 20000);
      self.handlers.open();
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      self.handlers.message(message);
    };
    socket.onclose = function () {
      clearInterval(self.pinger);
      if (self.socket !== socket) { return; }
      self.socket = null;
      if (self.stopped) { return; }
      self.handlers.closed();
      setTimeout(function () { if (!self.stopped) { self.connect(); } }, self.delay);
      self.delay = Math.min(self.delay * 2, 10000);
    };
  };
  Link.prototype.send = function (message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  };
  Link.prototype.stop = function () {
    this.stopped = true;
    if (this.socket) { this.socket.close(); }
  };

  // Both clocks as last told by the server, the side to move's running since then.
  function Clocks() { this.ms = { x: 0, o: 0 }; this.at = performance.now(); this.running = null; }
  Clocks.prototype.set = function (clock, running) {
    this.ms = { x: clock.x, o: clock.o };
    this.at = performance.now();
    this.running = running;
  };
  Clocks.prototype.read = function (side) {
    var ms = this.ms[side];
    if (this.running === side) { ms -= performance.now() - this.at; }
    return Math.max(0, ms);
  };

  // The end of a game in the core's words, which the server puts in the pages that show one
  // (keyed by winner, or draw, and reason: 'x pieces').
  var verdictsNode = document.getElementById('verdicts');
  var VERDICTS = verdictsNode ? JSON.parse(verdictsNode.textContent) : {};
  function endText(end) {
    var key = (end.outcome.winner || 'draw') + ' ' + end.outcome.reason;
    return 'Game over: ' + (VERDICTS[key] || key);
  }

  // MARK: /game/G of a finished game: stepping through it.
  function replay() {
    var board = new Board(document.getElementById('board'), null);
    var fens = data.fens.map(parseFen);
    var ply = 0;
    function show(n) {
      ply = Math.max(0, Math.min(fens.length - 1, n));
      var move = ply > 0 ? data.moves[ply - 1] : null;
      board.draw({ board: fens[ply], marks: ply > 0 ? landing(move, data.converted[ply - 1]) : null });
      setText('ply', 'ply ' + ply + ' of ' + (fens.length - 1));
      setText('counts', countsText(fens[ply], move ? (ply % 2 ? 'x ' : 'o ') + move : null));
      var buttons = document.querySelectorAll('.moves .ply');
      for (var i = 0; i < buttons.length; i++) {
        buttons[i].classList.toggle('current', i === ply - 1);
      }
      if (analysis) { showEval(); }
    }

    // The engine's analysis: a graph of the evaluation under the board, x's advantage up and o's
    // down, the mistakes marked on it and listed; each steps the board to the position after it.
    var analysis = null;
    var graph = document.getElementById('eval-graph');
    var analyseButton = document.getElementById('analyse-button');
    var SVG = 'http://www.w3.org/2000/svg';
    var WIDTH = 300, HEIGHT = 100;
    function pointX(n) { return fens.length > 1 ? n * WIDTH / (fens.length - 1) : 0; }
    // Evaluations are squashed into the graph: a piece or two moves it well, a won game nears the edge.
    function pointY(e) { return HEIGHT / 2 - (HEIGHT / 2 - 4) * e / (Math.abs(e) + 500); }
    function svg(name, attributes) {
      var node = document.createElementNS(SVG, name);
      Object.keys(attributes).forEach(function (key) { node.setAttribute(key, attributes[key]); });
      return node;
    }
    function pieces(centipieces) {
      if (centipieces >= 10000) { return 'x wins by force'; }
      if (centipieces <= -10000) { return 'o wins by force'; }
      var text = (Math.abs(centipieces) / 100).toFixed(2);
      return centipieces > 0 ? '+' + text + ' for x' : centipieces < 0 ? '+' + text + ' for o' : '0.00, level';
    }
    function showEval() {
      var marker = document.getElementById('eval-now');
      if (marker) { marker.setAttribute('x1', pointX(ply)); marker.setAttribute('x2', pointX(ply)); }
      var text = 'Evaluation after ply ' + ply + ': ' + pieces(analysis.evals[ply]) + ' (depth ' + analysis.depth + ')';
      analysis.mistakes.forEach(function (mistake) {
        if (mistake.ply === ply) {
          text += '. ' + mistake.played + ' was a mistake; the engine preferred ' + mistake.best;
        }
      });
      setText('analysis-status', text);
      document.querySelectorAll('.mistakes button').forEach(function (button) {
        button.classList.toggle('current', parseInt(button.dataset.ply, 10) === ply);
      });
    }
    // Each side's accuracy: the share of its moves that lost at most half a piece by the
    // analysis, and its average loss (absent from an older server's analysis).
    function showAccuracy(accuracy) {
      var line = document.getElementById('accuracy');
      line.textContent = '';
      if (!accuracy || !accuracy.x || !accuracy.o) { line.hidden = true; return; }
      line.appendChild(document.createTextNode('Accuracy (moves within 0.50 pieces of the engine\'s choice): '));
      ['x', 'o'].forEach(function (side, n) {
        var figures = accuracy[side];
        var disc = document.createElement('span');
        disc.className = 'disc ' + side;
        line.appendChild(disc);
        line.appendChild(document.createTextNode(' ' + side + ' ' + figures.percent + '% (' + figures.accurate + ' of ' +
          figures.moves + ', average loss ' + (figures.average_loss / 100).toFixed(2) + ')' + (n ? '' : ', ')));
      });
      line.hidden = false;
    }
    function showAnalysis(found) {
      analysis = found;
      analyseButton.hidden = true;
      while (graph.firstChild) { graph.removeChild(graph.firstChild); }
      var points = found.evals.map(function (e, n) { return pointX(n) + ',' + pointY(e); });
      graph.appendChild(svg('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: 'x-half' }));
      graph.appendChild(svg('rect', { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2, class: 'o-half' }));
      graph.appendChild(svg('line', { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: 'axis' }));
      graph.appendChild(svg('polyline', { points: points.join(' '), class: 'eval-line' }));
      graph.appendChild(svg('line', { id: 'eval-now', x1: 0, y1: 0, x2: 0, y2: HEIGHT, class: 'now' }));
      showAccuracy(found.accuracy);
      var list = document.getElementById('mistakes');
      list.textContent = '';
      found.mistakes.forEach(function (mistake) {
        var mover = mistake.ply % 2 ? 'x' : 'o';
        var dot = svg('circle', { cx: pointX(mistake.ply), cy: pointY(found.evals[mistake.ply]), r: 4,
                                  class: 'mistake ' + mover, tabindex: 0, role: 'button' });
        var title = svg('title', {});
        title.textContent = 'ply ' + mistake.ply + ': ' + mistake.played + '; the engine preferred ' + mistake.best;
        dot.appendChild(title);
        dot.addEventListener('click', function (event) { event.stopPropagation(); show(mistake.ply); });
        dot.addEventListener('keydown', function (event) { if (event.key === 'Enter') { show(mistake.ply); } });
        graph.appendChild(dot);
        var item = document.createElement('li');
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'mistake-step';
        button.dataset.ply = mistake.ply;
        button.innerHTML = '<span class="disc ' + mover + '"></span> ';
        button.title = mistake.played + ' lost ' + (mistake.loss / 100).toFixed(2) + ' pieces; the engine preferred ' +
          mistake.best;
        button.appendChild(document.createTextNode(mistake.ply + '. ' + mistake.played + ' → ' + mistake.best));
        button.onclick = function () { show(mistake.ply); };
        item.appendChild(button);
        list.appendChild(item);
      });
      if (!found.mistakes.length) {
        var none = document.createElement('li');
        none.className = 'quiet';
        none.textContent = 'No mistakes found at this depth.';
        list.appendChild(none);
      }
      graph.removeAttribute('hidden');
      showEval();
    }
    graph.addEventListener('click', function (event) {
      var box = graph.getBoundingClientRect();
      if (box.width > 0) { show(Math.round((event.clientX - box.left) / box.width * (fens.length - 1))); }
    });
    function offerAnalysis(text) {
      setText('analysis-status', text);
      analyseButton.hidden = false;
      analyseButton.disabled = false;
    }
    analyseButton.onclick = function () {
      analyseButton.disabled = true;
      setText('analysis-status', 'The engine is analysing the game…');
      var link = new Link({
        open: function () { link.send({ type: 'analyse', game: data.game }); },
        closed: function () {},
        message: function (message) {
          if (message.type === 'analysis' && message.game === data.game) {
            link.stop();
            showAnalysis(message);
          } else if (message.type === 'error') {
            link.stop();
            offerAnalysis(message.message);
          }
        }
      });
      link.connect();
    };
    fetch('/game/' + data.game + '/analysis')
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (found) {
        if (found) { showAnalysis(found); } else { offerAnalysis('The engine has not analysed this game yet.'); }
      })
      .catch(function () { offerAnalysis('The engine has not analysed this game yet.'); });
    document.getElementById('first').onclick = function () { show(0); };
    document.getElementById('back').onclick = function () { show(ply - 1); };
    document.getElementById('forward').onclick = function () { show(ply + 1); };
    document.getElementById('last').onclick = function () { show(fens.length - 1); };
    document.querySelectorAll('.moves .ply').forEach(function (button) {
      button.onclick = function () { show(parseInt(button.dataset.ply, 10)); };
    });
    document.addEventListener('keydown', function (event) {
      if (event.target && (event.target.tagName === 'INPUT' || event.target.tagName === 'SELECT')) { return; }
      var keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: fens.length - 1 };
      if (event.key in keys) { event.preventDefault(); show(keys[event.key]); }
    });
    show(fens.length - 1);
  }

  // MARK: /game/G in progress: watching it.
  function watch() {
    var board = new Board(document.getElementById('board'), null);
    var clocks = new Clocks();
    var state = null;
    var over = false;
    var link = new Link({
      open: function () { setText('status', ''); link.send({ type: 'watch', game: data.game }); },
      closed: function () { if (!over) { setText('status', 'connection lost; reconnecting…'); } },
      message: function (message) {
        if (message.type === 'game' && message.game === data.game) {
          var moves = message.moves || [];
          var lastMove = moves.length ? moves[moves.length - 1] : null;
          state = { board: parseFen(message.fen), marks: landing(lastMove), last: lastMove };
          setText('players', '');
          var players = document.getElementById('players');
          players.innerHTML = '';
          [['x', message.x], ['o', message.o]].forEach(function (pair, i) {
            if (i) { players.appendChild(document.createTextNode(' v ')); }
            var disc = document.createElement('span');
            disc.className = 'disc ' + pair[0];
            players.appendChild(disc);
            players.appendChild(document.createTextNode(' '));
            var a = document.createElement('a');
            a.href = '/player/' + encodeURIComponent(pair[1].name);
            a.textContent = pair[1].name;
            players.appendChild(a);
            var rating = document.createElement('span');
            rating.className = 'quiet';
            rating.textContent = ' ' + pair[1].rating;
            players.appendChild(rating);
            setText('name-' + pair[0], pair[1].name);
          });
          clocks.set(message.clock, state.board.side);
          redraw();
        } else if (message.type === 'moved' && message.game === data.game && state) {
          state.board = parseFen(message.fen);
          state.marks = landing(message.move, message.converted);
          state.last = message.move;
          clocks.set(message.clock, state.board.side);
          redraw();
        } else if (message.type === 'end' && message.game === data.game) {
          over = true;
          clocks.running = null;
          setText('result', endText(message));
          link.stop();
          setTimeout(function () { location.reload(); }, 1500);
        } else if (message.type === 'error' && message.code === 'no_such_game') {
          over = true;
          link.stop();
          setText('status', 'This game has ended.');
          setTimeout(function () { location.reload(); }, 1000);
        }
      }
    });
    function redraw() {
      board.draw({ board: state.board, marks: state.marks });
      setText('counts', countsText(state.board, state.last) + ' · ' + state.board.side + ' to play');
      tick();
    }
    function tick() {
      ['x', 'o'].forEach(function (side) {
        setText('time-' + side, clockText(clocks.read(side)));
        var node = document.getElementById('clock-' + side);
        if (node) { node.classList.toggle('running', clocks.running === side); }
      });
    }
    setInterval(tick, 100);
    link.connect();
  }

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
    // Come from a player's page ("Challenge NAME"): their name is filled in, to challenge them.
    var challenged = new URLSearchParams(location.search).get('challenge');
    if (challenged) { document.getElementById('friend-name').value = challenged; }
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

    // A game begins or goes on, from its `start` or `game` (`legal`: the player's legal moves when
    // it is their turn, as the server sent them; none otherwise).
    function begin(message, moves, clock) {
      var color = message.color;
      var opponent = message.opponent;
      var board = parseFen(message.fen);
      var lastMove = moves.length ? moves[moves.length - 1] : null;
      game = { id: message.game, color: color, opponent: opponent, board: board, marks: landing(lastMove),
               last: lastMove, legal: message.legal || null, selected: -1, sent: false, over: false,
               engine: /^AI level \d+$/.test(opponent.name), casual: message.rated === false };
      clocks.set(clock, board.side);
      var other = color === 'x' ? 'o' : 'x';
      document.getElementById('disc-top').className = 'disc ' + other;
      document.getElementById('disc-bottom').className = 'disc ' + color;
      setText('name-top', opponent.name + ' ' + opponent.rating);
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

  if (page === 'replay') { replay(); }
  if (page === 'watch') { watch(); }
  if (page === 'play') { play(); }
})();
