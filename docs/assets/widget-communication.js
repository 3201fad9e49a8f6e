/* distlesson all-reduce widget: look the library's results up, fill the outputs, size the
 * latency and bandwidth segments of the bar.
 *
 * The data in <script type="application/json" class="dl-widget-data"> was written at build
 * by distlesson.pages.communication_widget for every array size, GPU count and GPUs per
 * node, formatted for the page's language, with the segments' lengths in the SVG's units.
 * Nothing here computes a result. No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;

  core.register("communication", function (root, data, controls, out) {
    var latency = root.querySelector('rect[data-bar="latency"]');
    var bandwidth = root.querySelector('rect[data-bar="bandwidth"]');
    return function update() {
      var key = core.key(controls, ["size", "ranks", "node"], "-");
      var entry = data.d[key];
      if (!entry) return;
      out.time.textContent = entry.t;
      out.algbw.textContent = entry.g;
      out.busbw.textContent = entry.b;
      out.algorithm.textContent = entry.a;
      out.latency.textContent = entry.l;
      out.dominant.textContent = data.w.dominant[entry.d];
      out.dominant.setAttribute("data-term", entry.d === 0 ? "latency" : "bandwidth");
      latency.setAttribute("width", entry.W[0]);
      bandwidth.setAttribute("x", entry.W[0]);
      bandwidth.setAttribute("width", entry.W[1]);
      root.setAttribute("data-setting", key);
    };
  });
})();
