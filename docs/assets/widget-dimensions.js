/* distlesson five dimensions widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/dimensions_widget.py) for
 * every setting of its six controls and already formatted for the page's language. The
 * grid is large, so each output is a table over the controls it depends on (data.t, read
 * with core.lookup); a setting the library refused has its reason in table e. Nothing here
 * computes a result: the script looks the current setting up, shows it, draws the memory
 * per GPU as one stacked bar (widget-core.js) with a mark at the GPU's memory, and the
 * step's 1F1B pipeline. Whether the bubble goal is reached comes from the data too; when it
 * is, the goal is marked solved for the exercises page. No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var NAMES = ["dp", "tp", "pp", "cp", "zero", "microbatches"];
  var TABLES = ["mem", "gpus", "seq", "sent_dp", "sent_tp", "sent_pp", "sent_cp"];

  var ABOVE = 22;  // room above the bar for the GPU's memory

  // The GPU's memory: a dashed line across the bar and its size above it, on the side with
  // room, haloed in the page's background so that it reads over anything.
  function mark(svg, scale, words) {
    var x = scale.x(words.limit), left = x < 360;
    core.el("line", { x1: x, y1: scale.top - ABOVE + 4, x2: x, y2: scale.top + scale.bar + 4,
      class: "dl-mark-line", "data-mark": "limit" }, svg);
    core.label(svg, { x: left ? x + 5 : x - 5, y: scale.top - 9, "text-anchor": left ?
      "start" : "end", "dominant-baseline": "central", class: "dl-mark-text" },
    words.limitText);
  }

  core.register("dimensions", function (root, data, controls, out) {
    var words = data.w;
    function get(name) { return core.lookup(data.t[name], data.a, controls); }
    function legend(svg) {
      return svg.parentNode.nextElementSibling.querySelectorAll("[data-legend]");
    }
    var partsLegend = legend(out.bar), pipeLegend = legend(out.timeline);

    return function update() {
      var key = core.key(controls, NAMES, "|");
      var reason = get("e");
      var valid = reason === "";
      var v = {};
      TABLES.concat(["states", "acts", "pipe"]).forEach(function (name) {
        v[name] = valid ? get(name) : undefined;
      });
      var entry = valid ? {
        p: v.states[0].concat(v.acts[0], [v.mem[2]]),
        q: v.states[1].concat(v.acts[1], [v.mem[3]]) } : { e: reason };
      core.refusal(out, entry, valid);
      var shown = { memory: valid && v.mem[0], fits: valid && v.mem[1], gpus: v.gpus,
        sequences: v.seq, sent_dp: v.sent_dp, sent_tp: v.sent_tp, sent_pp: v.sent_pp,
        sent_cp: v.sent_cp, bubble: valid && v.pipe.b,
        goal: valid && words.goal[v.pipe.g ? 1 : 0] };
      Object.keys(shown).forEach(function (name) {
        out[name].textContent = valid ? shown[name] : words.none;
      });
      if (valid) out.goal.setAttribute("data-reached", v.pipe.g ? "true" : "false");
      else out.goal.removeAttribute("data-reached");
      root.setAttribute("data-setting", key);

      if (core.clearSvg(out.bar, entry)) {
        // the scale reaches past the longer of the bar and the GPU's memory
        var total = entry.p.reduce(function (a, b) { return a + b; }, 0);
        var scale = core.stackedBar(out.bar, entry, { span: Math.max(total, words.limit) * 1.1,
          labels: words.ticks, steps: words.steps, most: words.most, caption: words.axis,
          names: words.parts, colours: words.colours, inks: words.inks, top: ABOVE + 4 });
        mark(out.bar, scale, words);
      }
      core.timeline(out.timeline, valid ? v.pipe : entry, words, "dl-dimensions-hatch");
      // the bar's legend names the parts it has; the timeline's follows the timeline
      partsLegend.forEach(function (item, i) { item.hidden = !valid || !(entry.p[i] > 0); });
      pipeLegend.forEach(function (item) { item.hidden = !valid; });
      if (valid && v.pipe.g) {
        core.solved.mark("bubble-goal", { pp: Number(controls.pp.value),
          m: Number(controls.microbatches.value), schedule: "1f1b", bubble_text: v.pipe.b });
      }
    };
  });
})();
