// Nanashi in the browser: the board, the clocks and the protocol's socket. No dependencies.
// It knows no rules: the server tells the legal moves, the pieces each move turned, a forced
// pass and the end; the script only draws them.
(function () {
  'use strict';
  var FILES = 'abcdefg';
  var page = document.body.dataset.page;
  var dataNode = document.getElementById('page-data');
  var data = dataNode ? JSON.parse(dataNode.textContent) : {};

  // The built-in engine's level when `player` is its player (the protocol names it
  // 'AI level N', a name no person can take); null for a person.
  function engineLevel(player) {
    var match = /^AI level (\d+)$/.exec(player.name);
    return match ? +match[1] : null;
  }

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

