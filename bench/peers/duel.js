// The benchmark game, the same for every peer: two seats take turns; a move is one submit by the
// seat whose turn it is, which counts the move and hands the turn to the other seat. A match never
// ends by itself (the load generator stops it after K moves).
"use strict";

const Duel = {
  name: "duel",
  setup: () => ({ moves: 0, last: null }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    play: {
      // Only the server applies a move: the client shows the state the server pushes.
      client: false,
      move: ({ G, playerID }, value) => ({ moves: G.moves + 1, last: [playerID, value] }),
    },
  },
};

module.exports = { Duel };
