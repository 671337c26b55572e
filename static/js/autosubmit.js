// Submit a form when one of its <select data-autosubmit> changes. A file, not an
// inline onchange handler: the Content-Security-Policy refuses inline handlers.
document.addEventListener("change", function (event) {
  const target = event.target;
  if (target && target.matches && target.matches("select[data-autosubmit]") && target.form) {
    target.form.submit();
  }
});
