/**
 * The words of the scripts in the reader's language (docs/i18n.md).
 *
 * base.html loads Django's JavaScript catalogue (/jsi18n/) as a classic script
 * before any module runs; it defines `django.gettext` and friends. Without it
 * (Node's tests, a page without base.html) the English text is used.
 *
 *   t("Your turn")                          -> "Sua vez"
 *   t("%(name)s plays", {name: "Mei"})      -> "Mei joga"
 *   tn("%(n)s card", "%(n)s cards", 3, {n: 3})
 *
 * Placeholders are named (%(name)s) so a translation may reorder them.
 * `manage.py makemessages -d djangojs` knows t and tn as keywords.
 */

function catalog() {
  return (typeof globalThis !== "undefined" && globalThis.django) || null;
}

/** Fill %(name)s placeholders (a missing one stays as it is). */
export function format(text, params) {
  if (!params) return text;
  return String(text).replace(/%\((\w+)\)s/g, function (whole, key) {
    return Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole;
  });
}

/** The translation of `message`, with its %(name)s placeholders filled. */
export function t(message, params) {
  const c = catalog();
  return format(c && c.gettext ? c.gettext(message) : message, params);
}

/** Singular or plural by `count` (the language's own plural rule). */
export function tn(singular, plural, count, params) {
  const c = catalog();
  const text = c && c.ngettext ? c.ngettext(singular, plural, count) : count === 1 ? singular : plural;
  return format(text, params);
}

/** The page's language (BCP 47), for Intl formatting. */
export function language() {
  const lang = typeof document !== "undefined" && document.documentElement && document.documentElement.lang;
  return lang || "en";
}

/**
 * The zone the page shows times in: the signed-in user's profile zone (the
 * server's UserTimeZoneMiddleware puts it on <body data-time-zone>), UTC for
 * visitors; never the browser's own zone.
 */
export function timeZone() {
  const body = typeof document !== "undefined" && document.body;
  return (body && body.dataset.timeZone) || "UTC";
}

/**
 * An instant (ISO 8601 text, a Date or milliseconds) in the page's zone and
 * language. `options`: Intl.DateTimeFormat's (default: hours and minutes).
 */
export function formatTime(when, options) {
  const date = when instanceof Date ? when : new Date(when);
  if (isNaN(date.getTime())) return "";
  const opts = Object.assign({}, options || { timeStyle: "short" });
  try {
    return new Intl.DateTimeFormat(language(), Object.assign({ timeZone: timeZone() }, opts)).format(date);
  } catch (e) {
    // An unknown zone name (an old profile): UTC rather than the browser's.
    return new Intl.DateTimeFormat(language(), Object.assign(opts, { timeZone: "UTC" })).format(date);
  }
}

/** A number in the page's language's format (1,234.5 / 1.234,5 / 1 234,5). */
export function formatNumber(value, options) {
  try {
    return new Intl.NumberFormat(language(), options).format(value);
  } catch (e) {
    return String(value);
  }
}
