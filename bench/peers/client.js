// Load generator for the peers in bench/peers.py, the JavaScript twin of bench/matches.py.
// Every seat and watcher is its own connection and reacts to the state the server pushes to it.
//
//   node client.js SYSTEM URL grid    M K     M matches x K moves; prints one JSON object
//   node client.js SYSTEM URL length  K       one match of K moves; latency of every move, in order
//   node client.js SYSTEM URL fanout  N R     one match, N watchers, R moves: move sent -> each watcher sees it
//   node client.js SYSTEM URL memory  G S     G matches with 2 moves each, then S watchers of one match;
//                                             prints a phase line and waits for a line on stdin after each
//
// SYSTEM is bgio (socket.io, the protocol of boardgame.io's own client) or colyseus (colyseus.js).
// A move's latency runs from sending it until the mover's own connection receives the new state.
"use strict";

const readline = require("readline");

// How long a connection waits for the server (sync, a state after a move): long enough for a busy
// shared machine; bench/peers.py sets it with --peer-timeout.
const EVENT_TIMEOUT_MS = Number(process.env.PEERS_EVENT_TIMEOUT_MS || 30000);
const CONNECT_TRIES = 3;
const WARMUP_GAMES = 20;
const now = () => Number(process.hrtime.bigint()) / 1e6;

// -- boardgame.io: the socket.io protocol its client speaks (sync, then update with the stateID) --

class BgioConn {
  constructor(base, matchID, playerID) {
    this.base = base;
    this.matchID = matchID;
    this.playerID = playerID; // null for a watcher
    this.state = null;
    this.listener = () => {};
  }

  open() {
    return retrying(() => this.openOnce(), () => this.socket && this.socket.close());
  }

  openOnce() {
    const { io } = require("socket.io-client");
    this.socket = io(`${this.base}/duel`, { transports: ["websocket"], forceNew: true, reconnection: false });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("bgio sync timeout")), EVENT_TIMEOUT_MS);
      this.socket.on("connect_error", reject);
      this.socket.on("sync", (matchID, info) => {
        clearTimeout(timer);
        this.state = info.state;
        resolve();
        this.listener(this.view());
      });
      this.socket.on("update", (matchID, state) => {
        if (this.state && state._stateID <= this.state._stateID) return;
        this.state = state;
        this.listener(this.view());
      });
      this.socket.emit("sync", this.matchID, this.playerID, undefined, 2);
    });
  }

  view() {
    return { moves: this.state.G.moves, turn: Number(this.state.ctx.currentPlayer) };
  }

  move(value) {
    const action = { type: "MAKE_MOVE", payload: { type: "play", args: [value], playerID: this.playerID } };
    this.socket.emit("update", action, this.state._stateID, this.matchID, this.playerID);
  }

  close() {
    this.socket.close();
  }
}

let matchCounter = 0;
async function bgioMatch(base, watchers) {
  const matchID = `m${process.pid}-${matchCounter++}`;
  const seats = [new BgioConn(base, matchID, "0"), new BgioConn(base, matchID, "1")];
  await seats[0].open(); // the first sync creates the match; the second joins it
  await seats[1].open();
  const watching = watchers.map(() => new BgioConn(base, matchID, null));
  await inBatches(watching, (w) => w.open());
  return { seats, watching };
}

// -- Colyseus: colyseus.js rooms, seats by join order, watchers join the same room --

class ColyseusConn {
  constructor(room) {
    this.room = room;
    this.latest = null;
    this.listener = () => {};
    room.onStateChange((state) => {
      this.latest = { moves: state.moves, turn: state.turn };
      this.listener(this.latest);
    });
  }

  view() {
    return this.latest;
  }

  move(value) {
    this.room.send("move", value);
  }

  close() {
    return this.room.leave(true);
  }
}

async function colyseusMatch(base, watchers, keep = false) {
  const { Client } = require("colyseus.js");
  const url = base.replace("http://", "ws://");
  const join = (options) => retrying(() => new Client(url).joinById(first.room.roomId, options));
  const first = new ColyseusConn(
    await retrying(() => new Client(url).create("duel", { watchers: watchers.length, keep }))
  );
  // The second seat's arrival starts the match: the first listens before it joins.
  const seats = [first, new ColyseusConn(await join({}))];
  const watching = [];
  await inBatches(watchers, async () => {
    watching.push(new ColyseusConn(await join({ watch: true })));
  });
  return { seats, watching };
}

// Matchmaking over HTTP and the first socket can fail on a loaded machine ("socket hang up",
// ECONNRESET, a sync that times out): try again after a pause, a few times, before giving up.
async function retrying(connect, cleanUp = () => {}) {
  for (let trial = 1; ; trial++) {
    try {
      return await connect();
    } catch (error) {
      cleanUp();
      if (trial >= CONNECT_TRIES) throw error;
      await new Promise((r) => setTimeout(r, 250 * trial));
    }
  }
}

async function inBatches(items, fn, size = 50) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn));
  }
}

function openMatch(system, base, watchers = 0, keep = false) {
  const list = Array.from({ length: watchers });
  return system === "bgio" ? bgioMatch(base, list) : colyseusMatch(base, list, keep);
}

// -- one match played to K moves: each seat moves when its own stream says it is its turn --

function play(match, moves, totals, trace) {
  return new Promise((resolve) => {
    let done = false;
    let recorded = 0;
    let watchdog = null;
    const finish = (error) => {
      if (done) return;
      done = true;
      clearTimeout(watchdog);
      if (error) {
        totals.stalled += 1;
        totals.errors[error] = (totals.errors[error] || 0) + 1;
      }
      resolve();
    };
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => finish("stalled"), EVENT_TIMEOUT_MS);
    };
    match.seats.forEach((seat, index) => {
      let sentFor = -1;
      let sentAt = null;
      const react = (view) => {
        if (done || view === null) return;
        if (sentAt !== null && view.moves > sentFor) {
          const latency = now() - sentAt;
          totals.latencies.push(latency);
          if (trace) trace.push([sentFor + 1, latency]);
          sentAt = null;
          recorded += 1;
          if (recorded >= moves) return finish();
        }
        if (view.turn === index && view.moves > sentFor && view.moves < moves && sentAt === null) {
          sentFor = view.moves;
          sentAt = now();
          totals.moves += 1;
          arm();
          seat.move(view.moves);
        }
      };
      seat.listener = react;
      react(seat.view());
    });
    arm();
  });
}

async function closeMatch(match) {
  await Promise.all([...match.seats, ...match.watching].map((conn) => conn.close()));
}

function percentile(values, fraction) {
  if (values.length === 0) return null;
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.min(ordered.length - 1, Math.max(0, Math.round(fraction * (ordered.length - 1))))];
}

const round2 = (x) => (x === null ? null : Math.round(x * 100) / 100);

async function grid(system, base, matches, moves) {
  const totals = { latencies: [], moves: 0, stalled: 0, errors: {} };
  const started = now();
  await Promise.all(
    Array.from({ length: matches }, async () => {
      const match = await openMatch(system, base);
      await play(match, moves, totals, null);
      await closeMatch(match);
    })
  );
  const elapsed = (now() - started) / 1000;
  return {
    matches,
    moves_per_match: moves,
    moves: totals.moves,
    elapsed_s: round2(elapsed),
    moves_per_s: Math.round((totals.moves / elapsed) * 10) / 10,
    p50_ms: round2(percentile(totals.latencies, 0.5)),
    p99_ms: round2(percentile(totals.latencies, 0.99)),
    stalled: totals.stalled,
    errors: totals.errors,
  };
}

async function length(system, base, moves) {
  const totals = { latencies: [], moves: 0, stalled: 0, errors: {} };
  const trace = [];
  // Warm this process up first (JIT, sockets), so that early moves are not merely cold ones.
  const warm = await openMatch(system, base);
  await play(warm, 100, { latencies: [], moves: 0, stalled: 0, errors: {} }, null);
  await closeMatch(warm);
  const match = await openMatch(system, base);
  await play(match, moves, totals, trace);
  await closeMatch(match);
  return { moves: totals.moves, trace: trace.map(([n, ms]) => [n, round2(ms)]), stalled: totals.stalled };
}

async function fanout(system, base, watchers, rounds) {
  const match = await openMatch(system, base, watchers);
  const latencies = [];
  let timeouts = 0;
  for (let round = 0; round < rounds; round++) {
    const view = match.seats[0].view() || match.seats[1].view();
    const target = view.moves + 1;
    const sent = now();
    const arrivals = match.watching.map(
      (conn) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve(null), EVENT_TIMEOUT_MS);
          conn.listener = (v) => {
            if (v && v.moves >= target) {
              clearTimeout(timer);
              conn.listener = () => {};
              resolve(now() - sent);
            }
          };
        })
    );
    const moverSees = new Promise((resolve) => {
      match.seats.forEach((seat) => {
        seat.listener = (v) => v && v.moves >= target && resolve();
      });
    });
    match.seats[view.turn].move(round);
    for (const latency of await Promise.all(arrivals)) {
      if (latency === null) timeouts += 1;
      else latencies.push(latency);
    }
    await moverSees;
    await new Promise((r) => setTimeout(r, 20));
  }
  await closeMatch(match);
  return {
    subscribers: watchers,
    rounds,
    samples: latencies.length,
    timeouts,
    p50_ms: round2(percentile(latencies, 0.5)),
    p99_ms: round2(percentile(latencies, 0.99)),
    max_ms: round2(latencies.length ? Math.max(...latencies) : null),
  };
}

async function memory(system, base, games, watchers) {
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const phase = async (name, count) => {
    console.log(JSON.stringify({ phase: name, count }));
    await lines.next();
  };
  const totals = { latencies: [], moves: 0, stalled: 0, errors: {} };
  // Warm up first (code paths, pools, heap), so the growth measured is per game, not start-up.
  for (let i = 0; i < WARMUP_GAMES; i++) {
    const match = await openMatch(system, base, 2, true);
    await play(match, 2, totals, null);
    await closeMatch(match);
  }
  await phase("baseline", 0);
  await inBatches(
    Array.from({ length: games }),
    async () => {
      const match = await openMatch(system, base, 0, true);
      await play(match, 2, totals, null);
      await closeMatch(match);
    },
    20
  );
  await phase("games", games);
  const match = await openMatch(system, base, watchers, true);
  await phase("subscriptions", watchers);
  await closeMatch(match);
  return { stalled: totals.stalled };
}

async function main() {
  const [system, base, mode, a, b] = process.argv.slice(2);
  const x = Number(a);
  const y = Number(b);
  let result;
  if (mode === "grid") result = await grid(system, base, x, y);
  else if (mode === "length") result = await length(system, base, x);
  else if (mode === "fanout") result = await fanout(system, base, x, y);
  else if (mode === "memory") result = await memory(system, base, x, y);
  else throw new Error(`unknown mode ${mode}`);
  console.log(JSON.stringify(result));
  process.exit(0);
}

main().catch((error) => {
  console.error(error && error.stack ? error.stack : error);
  process.exit(1);
});
