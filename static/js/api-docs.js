/**
 * The API docs (drf-spectacular's Swagger UI, /api/docs/): names the one
 * control Swagger draws without a name, the dialogs' close button (an icon
 * alone), so a screen reader reads it (axe's button-name rule; docs/ui.md).
 * The name comes from the page (`data-close-label`), in the reader's language.
 */
const root = document.getElementById("swagger-ui");
if (root) {
  const label = root.dataset.closeLabel || "Close";
  const name = () => {
    for (const button of root.querySelectorAll("button.close-modal:not([aria-label])")) {
      button.setAttribute("aria-label", label);
    }
  };
  new MutationObserver(name).observe(root, { childList: true, subtree: true });
  name();
}
