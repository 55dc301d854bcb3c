// boardgame.io 0.50 server for bench/peers.py: in memory, or with bgio-postgres when DATABASE_URL is set.
// Usage: node bgio_server.js PORT
"use strict";

const { Server } = require("boardgame.io/server");
const { Duel } = require("./duel");

async function main() {
  const port = Number(process.argv[2]);
  const options = { games: [Duel], origins: ["http://127.0.0.1"] };
  if (process.env.DATABASE_URL) {
    const { PostgresStore } = require("bgio-postgres");
    options.db = new PostgresStore(process.env.DATABASE_URL, { logging: false });
  }
  const server = Server(options);
  // Readiness for the harness: the lobby API answers on /games once the server listens.
  await server.run({ port, callback: () => console.log(`listening ${port}`) });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
