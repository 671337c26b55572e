/*
 * One way out of a page. The player's socket (a match of theirs started) and a
 * waiting table's socket (the table started or closed) can both want to leave
 * the page at the same moment; the first one goes, and the others (and their
 * reconnect timers) stand down instead of reloading on top of it.
 */

let leaving = false;

/** Whether a script has already sent the page elsewhere. */
export function isLeaving() {
  return leaving;
}

/** Go to `url` (or reload when it is null), unless the page is already leaving. */
export function leave(win, url) {
  if (leaving) return;
  leaving = true;
  if (url) win.location.assign(url);
  else win.location.reload();
}
