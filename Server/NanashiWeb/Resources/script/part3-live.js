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

