// Example Duelo bot in JavaScript: a uniformly random legal action.
//
// Upload this file as is (it becomes main.js), or try it locally first:
//   python manage.py botmatch bots/examples/duelo_random.js --vs random
"use strict";

const kungfu_bot = require("./kungfu_bot.js");

const GAME = "duelo";

function choose(turn) {
  const ids = turn.legal_ids;
  return ids[Math.floor(Math.random() * ids.length)];
}

kungfu_bot.run(choose, {
  onHello: (hello) => kungfu_bot.log(`playing ${GAME} in seat ${hello.seat}`),
});
