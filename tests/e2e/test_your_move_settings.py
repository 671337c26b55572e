"""The profile's "your move" settings in the browser: one setting per channel
(e-mail, push, site notices) and turning browser push on and off.

Headless Chromium has no push service, so the page's ``PushManager`` is
replaced by a stand-in (an init script) that hands out a subscription the
way a browser does; everything else runs for real: the service worker's
registration, the permission, the page's script, the API and the database.
"""

from __future__ import annotations

from playwright.sync_api import expect

from notifications.models import PushSubscription

FAKE_PUSH_SERVICE = """
(() => {
  if (!window.PushManager) return;
  const KEY = "e2e-push-subscription";
  const make = (json) => ({
    endpoint: json.endpoint,
    toJSON: () => json,
    unsubscribe: () => { localStorage.removeItem(KEY); return Promise.resolve(true); },
  });
  PushManager.prototype.getSubscription = function () {
    const raw = localStorage.getItem(KEY);
    return Promise.resolve(raw ? make(JSON.parse(raw)) : null);
  };
  PushManager.prototype.subscribe = function (options) {
    const key = options && options.applicationServerKey;
    if (!(key instanceof Uint8Array) || key.length !== 65 || key[0] !== 4) {
      return Promise.reject(new Error("not a P-256 application server key"));
    }
    const json = {
      endpoint: "https://push.example.com/e2e/" + Date.now(),
      keys: {
        p256dh: "BMG1OIyOAD2o0WJwEL6fBJLFy6OiurD5Pb4wIQ5Q_RJyN-AI92teSdx7ECL3H7"
          + "HxbFq0OoecZJLtPhwRX451X3A",
        auth: "TOxRu6dJoGaKJJmMKBBwkw",
      },
    };
    localStorage.setItem(KEY, JSON.stringify(json));
    return Promise.resolve(make(json));
  };
})();
"""


def test_your_move_channels_and_browser_push_on_the_profile(arena):
    me = arena.player()
    me.context.grant_permissions(["notifications"], origin=arena.base_url)
    me.context.add_init_script(FAKE_PUSH_SERVICE)
    page = me.page
    page.goto("/accounts/profile/edit/")
    # Each channel is a setting: a daily digest, push on, no site notices.
    page.select_option("#id_your_move_email", "digest")
    expect(page.locator("#id_your_move_push")).to_be_checked()
    page.uncheck("#id_your_move_site")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Profile saved")

    def settings():
        me.user.refresh_from_db()
        return (me.user.your_move_email, me.user.your_move_push, me.user.your_move_site)

    assert arena.server_side(settings) == ("digest", True, False)
    page.goto("/accounts/profile/edit/")
    expect(page.locator("#id_your_move_email")).to_have_value("digest")
    expect(page.locator("#id_your_move_site")).not_to_be_checked()
    # Browser push: this browser is not subscribed yet.
    box = page.locator("#push")
    expect(box.locator("[data-no-devices]")).to_be_visible()
    box.get_by_role("button", name="Turn on push in this browser").click()
    # The page reloads with this browser in the list.
    device = box.locator("[data-device]")
    expect(device).to_have_count(1)
    expect(device).to_contain_text("Chrome on Linux")
    expect(box.locator("[data-push-state]")).to_have_text(
        "This browser gets push notices."
    )
    rows = arena.server_side(
        lambda: list(
            PushSubscription.objects.filter(user=me.user).values_list(
                "endpoint", "device"
            )
        )
    )
    assert len(rows) == 1 and rows[0][0].startswith("https://push.example.com/e2e/")
    # Turned off in this browser: unsubscribed there and forgotten here.
    box.get_by_role("button", name="Turn off push in this browser").click()
    expect(box.locator("[data-no-devices]")).to_be_visible()
    expect(
        box.get_by_role("button", name="Turn on push in this browser")
    ).to_be_visible()
    assert (
        arena.server_side(lambda: PushSubscription.objects.filter(user=me.user).count())
        == 0
    )
