// Submit a form when one of its <select data-autosubmit> changes. A file, not an
// inline onchange handler: the Content-Security-Policy refuses inline handlers.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("select[data-autosubmit]") && target.form) {
      target.form.submit();
    }
  });
})();
