/* Typeset the formulas that pymdownx.arithmatex (generic mode) marked: each
   <span class="arithmatex">\( ... \)</span> (or a <div> with \[ ... \]) becomes KaTeX,
   from the copy shipped in assets/vendor/katex: no request leaves the site. A formula that
   KaTeX cannot parse stays as its source and logs an error, which the browser tests catch. */
(function () {
  "use strict";
  function typeset() {
    document.querySelectorAll(".arithmatex").forEach(function (el) {
      var source = el.textContent.trim();
      var display = el.tagName === "DIV";
      var inner = source.replace(/^\\[([]/, "").replace(/\\[)\]]$/, "");
      try {
        katex.render(inner, el, { displayMode: display, throwOnError: true });
        el.classList.add("dl-typeset");
      } catch (error) {
        console.error("KaTeX could not typeset " + source + ": " + error.message);
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", typeset);
  } else {
    typeset();
  }
})();
