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

