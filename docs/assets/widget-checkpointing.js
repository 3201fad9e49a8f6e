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

  var core = window.distlessonWidgets;
  var LABEL = 190, GAP = 6;  // as the build drew the bars: they start at LABEL

  core.register("checkpointing", function (root, data, controls, out) {
    var bars = ["none", "full"].map(function (name) {
      return { rect: root.querySelector('rect[data-bar="' + name + '"]'),
               value: root.querySelector('text[data-bar-value="' + name + '"]') };
    });
    return function update() {
      var key = core.key(controls, ["layers", "seq"], "-");
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
    };
  });
})();
