/*
 * An arena's countdown: every element with data-countdown (an ISO time) shows
 * the time left until it, as h:mm:ss or m:ss, once a second. The live page
 * swaps these elements in on every change (tournament-live.js), so each tick
 * looks them up again. Past the time it shows 0:00; the server says what
 * happens then (the page's next live update).
 */

function left(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

function tick() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-countdown]")) {
    const until = Date.parse(node.dataset.countdown);
    if (!Number.isNaN(until)) node.textContent = left(until - now);
  }
}

tick();
setInterval(tick, 1000);
