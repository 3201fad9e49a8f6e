/* distlesson widgets: look the library's results up, fill the outputs, draw.
 *
 * Each widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library for every setting of its controls and already
 * formatted for the page's language. Nothing here computes a result: the script picks the
 * entry of the current setting and shows it. No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets, el = core.el;
  var KIND_COLOURS = { F: "#0072B2", B: "#E69F00", W: "#009E73" }; // Okabe-Ito
  var KIND_TEXT = { F: "#ffffff", B: "#000000", W: "#000000" };
  // Later chunks of an interleaved stage: the same hues mixed with 45 % white, opaque so
  // that the idle hatching behind the row does not show through.
  var KIND_LIGHT = { F: "#73B2D5", B: "#F2CA73", W: "#73CAB2" };

  // Layout of the timeline, in the units of its viewBox.
  var WIDTH = 720, LEFT = 84, RIGHT = 14, TOP = 6, ROW = 24, BAR = 18, AXIS = 44;
  var TICK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];

  function drawTimeline(svg, entry, words) {
    if (!core.clearSvg(svg, entry)) return;
    var ops = entry.o, span = entry.T, stages = 0, chunked = false, i;
    for (i = 0; i < ops.s.length; i++) {
      stages = Math.max(stages, ops.s[i] + 1);
      chunked = chunked || ops.c[i] > 0;
    }
    var plot = WIDTH - LEFT - RIGHT;
    var height = TOP + stages * ROW + AXIS;
    var x = function (t) { return LEFT + (t / span) * plot; };
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + height);

    var defs = el("defs", {}, svg);
    var hatch = el("pattern", { id: "dl-pipeline-hatch", width: 6, height: 6,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "currentColor", "stroke-width": 1.5,
      "stroke-opacity": 0.35 }, hatch);

    // Rows: the stage's label and its idle background (a path, so that <rect>s are ops).
    for (var s = 0; s < stages; s++) {
      var y = TOP + s * ROW + (ROW - BAR) / 2;
      el("path", { class: "dl-idle", d: "M" + LEFT + " " + y + "h" + plot + "v" + BAR +
        "h" + (-plot) + "z", fill: "url(#dl-pipeline-hatch)" }, svg);
      var label = el("text", { x: LEFT - 8, y: y + BAR / 2, "text-anchor": "end",
        "dominant-baseline": "central", class: "dl-axis-text" }, svg);
      label.textContent = words.stage[s];
    }

    // One rect per operation, where the simulator placed it.
    for (i = 0; i < ops.s.length; i++) {
      var kind = ops.k.charAt(i), chunk = ops.c[i];
      var x0 = x(ops.a[i]), w = x(ops.z[i]) - x0, top = TOP + ops.s[i] * ROW + (ROW - BAR) / 2;
      var rect = el("rect", { x: x0, y: top, width: w, height: BAR,
        fill: (chunk > 0 ? KIND_LIGHT : KIND_COLOURS)[kind], "data-kind": kind,
        "data-stage": ops.s[i], "data-microbatch": ops.m[i], "data-chunk": chunk }, svg);
      var number = words.n[ops.m[i] + 1];
      var title = el("title", {}, rect);
      title.textContent = words.kind[kind] + ", " + words.mb + " " + number +
        (chunked ? ", " + words.chunk + " " +
        words.n[chunk + 1] : "");
      if (w >= 7 * number.length + 5) {
        var text = el("text", { x: x0 + w / 2, y: top + BAR / 2, "text-anchor": "middle",
          "dominant-baseline": "central", class: "dl-op-text",
          fill: chunk > 0 ? "#000000" : KIND_TEXT[kind] }, svg);
        text.textContent = number;
      }
    }

    // The time axis: ticks on whole units, labelled in the page's digits.
    var base = TOP + stages * ROW + 2;
    core.axis(svg, { left: LEFT, plot: plot, base: base, span: span, x: x,
      steps: TICK_STEPS, most: 10, labels: words.n, caption: words.time });
  }

  core.register("pipeline", function (root, data, controls, out) {
    var words = data.w;
    return function update() {
      var key = core.key(controls, ["stages", "microbatches", "schedule"], "-");
      var entry = data.d[key];
      var valid = entry && !entry.e;
      out.bubble.textContent = valid ? entry.b : words.none;
      out.makespan.textContent = valid ? entry.t : words.none;
      out.peaks.textContent = valid ? entry.p : words.none;
      out.goal.textContent = valid ? words.goal[entry.g ? 1 : 0] : words.none;
      if (valid) out.goal.setAttribute("data-reached", entry.g ? "true" : "false");
      else out.goal.removeAttribute("data-reached");
      core.refusal(out, entry, valid);
      drawTimeline(out.timeline, entry, words);
      // the legend names weight gradients only when the schedule splits the backward
      var split = valid && entry.o.k.indexOf("W") >= 0;
      root.querySelectorAll("[data-legend]").forEach(function (item) {
        item.hidden = !valid || (item.getAttribute("data-legend") === "W" && !split);
      });
      root.setAttribute("data-setting", key);
    };
  });
})();
