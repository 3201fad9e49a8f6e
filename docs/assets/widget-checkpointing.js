/* distlesson activation checkpointing widget: look the library's counts up, fill the
 * outputs, size the two bars.
 *
 * The data in <script type="application/json" class="dl-widget-data"> was written at build
 * by distlesson.pages.checkpointing_widget for every layer count and sequence length,
 * formatted for the page's language, with the bars' lengths in the SVG's units. Nothing
 * here computes a result. No request leaves the page.
 */
(function () {
  "use strict";

  var LABEL = 190, GAP = 6;  // as the build drew the bars: they start at LABEL

  function initCheckpointing(root) {
    if (root.getAttribute("data-ready") === "true") return;
    var source = root.querySelector("script.dl-widget-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var controls = {}, out = {};
    root.querySelectorAll("select[data-in]").forEach(function (select) {
      controls[select.getAttribute("data-in")] = select;
    });
    root.querySelectorAll("[data-out]").forEach(function (node) {
      out[node.getAttribute("data-out")] = node;
    });
    var bars = ["none", "full"].map(function (name) {
      return { rect: root.querySelector('rect[data-bar="' + name + '"]'),
               value: root.querySelector('text[data-bar-value="' + name + '"]') };
    });

    function update() {
      var key = controls.layers.value + "-" + controls.seq.value;
      var entry = data.d[key];
      if (!entry) return;
      out.none.textContent = entry.n;
      out.full.textContent = entry.f;
      out.reduction.textContent = entry.r;
      out.attention.textContent = entry.a;
      [entry.n, entry.f].forEach(function (text, i) {
        bars[i].rect.setAttribute("width", entry.W[i]);
        bars[i].value.setAttribute("x", LABEL + entry.W[i] + GAP);
        bars[i].value.textContent = text;
      });
      root.setAttribute("data-setting", key);
    }

    Object.keys(controls).forEach(function (name) {
      controls[name].addEventListener("change", update);
      controls[name].addEventListener("input", update);
    });
    update();
    root.setAttribute("data-ready", "true");
  }

  function init() {
    document.querySelectorAll('.dl-widget[data-widget="checkpointing"]')
      .forEach(initCheckpointing);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
