/* distlesson MFU widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/mfu_widget.py) for every
 * setting of its controls and already formatted for the page's language. Nothing here
 * computes a result: the script picks the entry of the current setting, shows it and draws
 * the step's seven terms, in seconds, as one stacked bar (widget-core.js). No request
 * leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var NAMES = ["efficiency", "microbatches", "schedule", "recompute"];

  core.register("mfu", function (root, data, controls, out) {
    return function update() {
      var key = core.key(controls, NAMES, "|");
      var entry = data.d[key];
      var valid = entry && !entry.e;
      out.mfu.textContent = valid ? entry.m : data.w.none;
      out.step.textContent = valid ? entry.t : data.w.none;
      out.largest.textContent = valid ? entry.l : data.w.none;
      out.memory.textContent = valid ? entry.g : data.w.none;
      core.refusal(out, entry, valid);
      // a setting the library refused: no bar, the message says why
      if (core.clearSvg(out.bar, entry)) {
        // the scale is the grid's longest bar, so that settings compare by eye
        core.stackedBar(out.bar, entry, { span: data.w.n.length - 1, labels: data.w.n,
          steps: [1, 2, 5, 10, 20], caption: data.w.axis, names: data.w.terms,
          colours: data.w.colours, inks: data.w.inks });
      }
      root.querySelectorAll("[data-legend]").forEach(function (item) {
        item.hidden = !valid;
      });
      root.setAttribute("data-setting", key);
    };
  });
})();
