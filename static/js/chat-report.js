/**
 * The report form under a chat panel, shared by table chat (chat.js) and lobby
 * chat (lobby-chat.js): open it on a line, send the report, say how it went.
 */
import { t } from "./i18n.js";

/**
 * Wire `form` (the panel's [data-role="chat-report"], may be null) and return
 * the function that opens it on a line. `post(url, body)` sends JSON and
 * resolves to the response; `say(message)` shows an error ("" clears it).
 */
function chatReporting({ form, part, post, url, say }) {
  let reporting = null;
  if (form) {
    part("chat-report-cancel").addEventListener("click", function () { form.hidden = true; });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!reporting) return;
      const body = { message: reporting.id, reason: form.elements.reason.value, note: form.elements.note.value };
      post(url, body).then(function (resp) {
        form.hidden = true;
        form.elements.note.value = "";
        say(resp.ok ? "" : t("The report was not sent."));
        const note = part("chat-note");
        if (resp.ok && note) note.textContent = t("Thank you: your report went to the moderators.");
      });
    });
  }
  return function openReport(line) {
    if (!form) return;
    reporting = line;
    part("chat-report-line").textContent = t("Report %(name)s: “%(text)s”", { name: line.author, text: line.text });
    form.hidden = false;
  };
}

export { chatReporting };
