/* distlesson optimizer memory widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/optimizer_widget.py) for
 * every setting of its controls and already formatted for the page's language. Nothing here
 * computes a result: the script picks the entry of the current setting, shows it and draws
 * its bytes per parameter as one stacked bar (widget-core.js). No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var NAMES = ["optimizer", "precision", "model"];

  core.register("optimizer", function (root, data, controls, out) {
    var words = data.w;
    return function update() {
      var key = core.key(controls, NAMES, "|");
      var entry = data.d[key];
      if (!entry) return;
      out.bpp.textContent = entry.b;
      out.states.textContent = entry.s;
      out.gpus.textContent = entry.g;
      var svg = out.bar;
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      // the scale is the grid's longest bar, so that settings compare by eye
      core.stackedBar(svg, entry, { span: words.n.length - 1, labels: words.n,
        steps: [1, 2, 4, 5, 10], caption: words.axis, names: words.parts,
        colours: words.colours, inks: words.inks });
      root.querySelectorAll("[data-legend]").forEach(function (item, i) {
        item.hidden = !(entry.p[i] > 0);  // no master copy: no master in the legend
      });
      root.setAttribute("data-setting", key);
    };
  });
})();
