// Colyseus 0.16 server for bench/peers.py: the duel as a room with a schema state, in memory.
// Each accepted move is pushed at once (broadcastPatch) instead of on the default 50 ms patch
// timer, so the latency measured is the server's, not the timer's.
// Usage: node colyseus_server.js PORT
"use strict";

const http = require("http");
const { Server, Room } = require("@colyseus/core");
const { WebSocketTransport } = require("@colyseus/ws-transport");
const { Schema, defineTypes } = require("@colyseus/schema");

class DuelState extends Schema {
  constructor() {
    super();
    this.moves = 0;
    this.turn = -1; // -1 until both seats are taken
  }
}
defineTypes(DuelState, { moves: "number", turn: "number" });

class DuelRoom extends Room {
  onCreate(options) {
    // Spectators (the fan-out and memory probes) join the same room beyond the two seats.
    this.maxClients = 2 + (options.watchers || 0);
    this.autoDispose = !options.keep; // the memory probe keeps rooms without clients
    this.setState(new DuelState());
    this.setPatchRate(null);
    this.seats = new Map();
    this.onMessage("move", (client, value) => {
      const seat = this.seats.get(client.sessionId);
      if (seat === undefined || seat !== this.state.turn) return;
      this.state.moves += 1;
      this.state.turn = 1 - seat;
      this.lastMove = value;
      this.broadcastPatch();
    });
  }

  onJoin(client, options) {
    if (options.watch) return;
    const seat = this.seats.size;
    this.seats.set(client.sessionId, seat);
    if (this.seats.size === 2) {
      this.state.turn = 0;
      this.broadcastPatch();
    }
  }
}

const server = new Server({ transport: new WebSocketTransport({ server: http.createServer() }) });
server.define("duel", DuelRoom);
const port = Number(process.argv[2]);
server.listen(port, "127.0.0.1").then(() => console.log(`listening ${port}`));
