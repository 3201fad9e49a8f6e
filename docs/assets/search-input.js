/* Material sends the search query to its worker on "keyup" only. Text that arrives without
   a key, as a Persian or other input method, a paste or a phone keyboard's suggestion may
   insert it, left the results at "type to start searching". Every input event now also
   reaches the search as a (non-bubbling) keyup, so the query is the field's content. */
(function () {
  "use strict";
  var field = document.querySelector("input.md-search__input");
  if (!field) return;
  field.addEventListener("input", function () {
    field.dispatchEvent(new KeyboardEvent("keyup", { bubbles: false }));
  });
})();
