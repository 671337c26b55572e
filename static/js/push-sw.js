/**
 * The service worker of browser push ("your move" in a correspondence game,
 * docs/notifications.md). The server's payload is JSON: title, body, url
 * (the game) and tag (one notice per game: a newer one replaces it). A click
 * focuses a tab already on the game, or opens one.
 */

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (err) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = data.title || "Kung Fu Arena";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || undefined,
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return; // only the site's own pages
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (tabs) {
      for (const tab of tabs) {
        if (tab.url === target.href && "focus" in tab) return tab.focus();
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
