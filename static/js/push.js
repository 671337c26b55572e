/**
 * The profile's "Browser push" box: turn Web Push on or off in this browser.
 * Registers the service worker (push-sw.js), subscribes with the server's
 * VAPID key and hands the subscription to /api/me/push-subscriptions/ (one
 * row per browser); turning off unsubscribes and tells the server. The list
 * of the player's browsers is the server's, so the page reloads after a change.
 */

function keyBytes(base64url) {
  const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(padded);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

function deviceName(ua) {
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "A browser";
  const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Windows/.test(ua) ? "Windows" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : "";
  return system ? browser + " on " + system : browser;
}

async function startPush(win) {
  const doc = win.document;
  const box = doc.querySelector("[data-push]");
  if (!box) return;
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const state = box.querySelector("[data-push-state]");
  const csrf = box.querySelector("input[name=csrfmiddlewaretoken]");
  if (!on || !off || !state) return; // push is not set up on this server
  const say = function (text) { state.textContent = text; };
  const supported = "serviceWorker" in win.navigator && "PushManager" in win && "Notification" in win;
  if (!supported || !box.dataset.vapidKey) {
    say("This browser cannot receive push notices.");
    return;
  }
  const send = function (method, body) {
    return win.fetch(box.dataset.api, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    });
  };
  let registration;
  try {
    registration = await win.navigator.serviceWorker.register(box.dataset.worker);
  } catch (err) {
    say("This browser refused the push service worker.");
    return;
  }
  let current = await registration.pushManager.getSubscription();
  const show = function () {
    on.hidden = !!current;
    off.hidden = !current;
    say(current ? "This browser gets push notices." : "");
  };
  show();
  on.addEventListener("click", async function () {
    on.disabled = true;
    try {
      const permission = await win.Notification.requestPermission();
      if (permission !== "granted") {
        say("Notifications are blocked for this site in the browser's settings.");
        return;
      }
      current = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(box.dataset.vapidKey),
      });
      const json = current.toJSON();
      const answer = await send("POST", { endpoint: json.endpoint, keys: json.keys, device: deviceName(win.navigator.userAgent) });
      if (!answer.ok) {
        say("The server did not accept this browser's subscription.");
        return;
      }
      win.location.reload();
    } catch (err) {
      say("Push could not be turned on in this browser.");
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener("click", async function () {
    off.disabled = true;
    try {
      if (current) {
        const endpoint = current.endpoint;
        await current.unsubscribe();
        await send("DELETE", { endpoint: endpoint });
      }
      win.location.reload();
    } finally {
      off.disabled = false;
    }
  });
}

startPush(window);
