  // MARK: /game/G of a finished game: stepping through it.
  function replay() {
    var board = new Board(document.getElementById('board'), null);
    var fens = data.fens.map(parseFen);
    var ply = 0;
    // The side that made the move of ply n (1 for the first), by the start's side to move: a
    // game from a FEN may start with o.
    var firstMover = fens[0].side;
    function moverAt(n) { return (n - 1) % 2 === 0 ? firstMover : (firstMover === 'x' ? 'o' : 'x'); }
    function show(n) {
      ply = Math.max(0, Math.min(fens.length - 1, n));
      var move = ply > 0 ? data.moves[ply - 1] : null;
      board.draw({ board: fens[ply], marks: ply > 0 ? landing(move, data.converted[ply - 1]) : null });
      setText('ply', 'ply ' + ply + ' of ' + (fens.length - 1));
      setText('counts', countsText(fens[ply], move ? moverAt(ply) + ' ' + move : null));
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
    // What a mistake cost its mover: pieces, or a win or a loss by force no count of pieces says.
    function costOf(found, mistake) {
      var sign = moverAt(mistake.ply) === 'x' ? 1 : -1;
      if (sign * found.evals[mistake.ply - 1] >= 10000) { return 'gave up a win by force'; }
      if (sign * found.evals[mistake.ply] <= -10000) { return 'walked into a loss by force'; }
      return 'lost ' + (mistake.loss / 100).toFixed(2) + ' pieces';
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
        var mover = moverAt(mistake.ply);
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
        button.title = mistake.played + ' ' + costOf(found, mistake) + '; the engine preferred ' + mistake.best;
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

  // A player's rating, or for the engine's player its level's strength ('about 780') from the
  // levels the page was given: the server rates that player at an unrated 1500.
  function strength(player) {
    var level = engineLevel(player);
    var entry = level && (data.levels || []).filter(function (e) { return e.level === level; })[0];
    return entry ? 'about ' + entry.elo : player.rating;
  }

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
            rating.textContent = ' ' + strength(pair[1]);
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

