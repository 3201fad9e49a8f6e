/* distlesson five dimensions widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/dimensions_widget.py) for
 * every setting of its controls and already formatted for the page's language; a setting
 * the library refused carries its reason (e) instead. Nothing here computes a result: the
 * script picks the entry of the current setting, shows it and draws its memory per GPU as
 * one stacked bar (widget-core.js) with a mark at the GPU's memory. No request leaves the
 * page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var NAMES = ["dp", "tp", "pp", "zero"];
  var OUTS = ["memory", "fits", "gpus", "sent_dp", "sent_tp", "sent_pp"];
  var WIDTH = 720, LEFT = 14, RIGHT = 14, TOP = 6, BAR = 30;  // as core.stackedBar draws

  function mark(svg, words) {
    var span = words.n.length - 1;
    var x = LEFT + (words.limit / span) * (WIDTH - LEFT - RIGHT);
    core.el("line", { x1: x, y1: TOP - 4, x2: x, y2: TOP + BAR + 4, stroke: "#D55E00",
      "stroke-width": 2, "stroke-dasharray": "4 2", "data-mark": "limit" }, svg);
    var text = core.el("text", { x: x + 4, y: TOP + BAR - 4, class: "dl-op-text",
      fill: "currentColor" }, svg);
    text.textContent = words.limitText;
  }

  core.register("dimensions", function (root, data, controls, out) {
    return function update() {
      var key = core.key(controls, NAMES, "|");
      var entry = data.d[key];
      var valid = !!(entry && !entry.e);
      core.refusal(out, entry, valid);
      OUTS.forEach(function (name) {
        var value = "";
        if (valid) {
          value = { memory: entry.m, fits: entry.f, gpus: entry.g, sent_dp: entry.c[0],
            sent_tp: entry.c[1], sent_pp: entry.c[2] }[name];
        }
        out[name].textContent = valid ? value : "–";
      });
      root.setAttribute("data-setting", key);
      if (!core.clearSvg(out.bar, entry)) return;
      // the scale is the grid's longest bar, so that settings compare by eye
      core.stackedBar(out.bar, entry, data.w, data.w.parts, 0,
        [1, 2, 5, 10, 20, 50, 100, 200, 500]);
      mark(out.bar, data.w);
      root.querySelectorAll("[data-legend]").forEach(function (item, i) {
        item.hidden = !(entry.p[i] > 0);
      });
    };
  });
})();
