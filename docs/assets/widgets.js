/* distlesson pipeline widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/pipeline_widget.py) for
 * every setting of its controls and already formatted for the page's language. Nothing
 * here computes a result: the script picks the entry of the current setting, shows it and
 * draws the simulated timeline (widget-core.js). Whether the bubble goal is reached comes
 * from the data too; when it is, the goal is marked solved for the exercises page. No
 * request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var NAMES = ["stages", "microbatches", "schedule"];

  core.register("pipeline", function (root, data, controls, out) {
    var words = data.w;
    return function update() {
      var key = core.key(controls, NAMES, "-");
      var entry = data.d[key];
      var valid = !!(entry && !entry.e);
      out.bubble.textContent = valid ? entry.b : words.none;
      out.makespan.textContent = valid ? entry.t : words.none;
      out.peaks.textContent = valid ? entry.p : words.none;
      out.goal.textContent = valid ? words.goal[entry.g ? 1 : 0] : words.none;
      if (valid) out.goal.setAttribute("data-reached", entry.g ? "true" : "false");
      else out.goal.removeAttribute("data-reached");
      core.refusal(out, entry, valid);
      core.timeline(out.timeline, entry, words, "dl-pipeline-hatch");
      // the legend names weight gradients only when the schedule splits the backward
      var split = valid && entry.o.k.indexOf("W") >= 0;
      root.querySelectorAll("[data-legend]").forEach(function (item) {
        item.hidden = !valid || (item.getAttribute("data-legend") === "W" && !split);
      });
      root.setAttribute("data-setting", key);
      if (valid && entry.g) {
        core.solved.mark("bubble-goal", { pp: Number(controls.stages.value),
          m: Number(controls.microbatches.value), schedule: controls.schedule.value,
          bubble_text: entry.b });
      }
    };
  });
})();
