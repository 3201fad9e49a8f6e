/* distlesson optimizer memory widget: look the library's results up, fill the outputs, draw.
 *
 * The widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/optimizer_widget.py) for
 * every setting of its controls and already formatted for the page's language. Nothing here
 * computes a result: the script picks the entry of the current setting, shows it and draws
 * its bytes per parameter as one stacked bar. No request leaves the page.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  // Layout of the bar, in the units of its viewBox.
  var WIDTH = 720, LEFT = 14, RIGHT = 14, TOP = 6, BAR = 30, AXIS = 44;
  var TICK_STEPS = [1, 2, 4, 5, 10];

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function drawBar(svg, entry, words) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    // the scale is the grid's longest bar, so that settings compare by eye
    var span = words.n.length - 1;
    var plot = WIDTH - LEFT - RIGHT;
    var x = function (v) { return LEFT + (v / span) * plot; };
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + (TOP + BAR + AXIS));
    var start = 0;
    for (var i = 0; i < entry.p.length; i++) {
      var value = entry.p[i];
      if (value <= 0) continue;
      var x0 = x(start), w = x(start + value) - x0;
      var rect = el("rect", { x: x0, y: TOP, width: w, height: BAR, fill: words.colours[i],
        "data-part": i }, svg);
      var title = el("title", {}, rect);
      title.textContent = words.parts[i] + ": " + entry.q[i];
      if (w >= 8 * entry.q[i].length + 6) {
        var text = el("text", { x: x0 + w / 2, y: TOP + BAR / 2, "text-anchor": "middle",
          "dominant-baseline": "central", class: "dl-op-text",
          fill: i === 0 ? "#ffffff" : "#000000" }, svg);
        text.textContent = entry.q[i];
      }
      start += value;
    }
    var base = TOP + BAR + 2;
    el("line", { x1: LEFT, y1: base, x2: LEFT + plot, y2: base, stroke: "currentColor",
      "stroke-width": 1 }, svg);
    var step = TICK_STEPS[TICK_STEPS.length - 1];
    for (i = 0; i < TICK_STEPS.length; i++) {
      if (span / TICK_STEPS[i] <= 12) { step = TICK_STEPS[i]; break; }
    }
    for (var t = 0; t <= span; t += step) {
      el("line", { x1: x(t), y1: base, x2: x(t), y2: base + 4, stroke: "currentColor",
        "stroke-width": 1 }, svg);
      var tick = el("text", { x: x(t), y: base + 15, "text-anchor": "middle",
        class: "dl-axis-text" }, svg);
      tick.textContent = words.n[t];
    }
    var caption = el("text", { x: LEFT + plot / 2, y: base + 34, "text-anchor": "middle",
      class: "dl-axis-text" }, svg);
    caption.textContent = words.axis;
  }

  function initOptimizer(root) {
    if (root.getAttribute("data-ready") === "true") return;
    var source = root.querySelector("script.dl-widget-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var controls = {};
    root.querySelectorAll("select[data-in]").forEach(function (select) {
      controls[select.getAttribute("data-in")] = select;
    });
    var out = {};
    root.querySelectorAll("[data-out]").forEach(function (node) {
      out[node.getAttribute("data-out")] = node;
    });

    function update() {
      var key = controls.optimizer.value + "|" + controls.precision.value + "|" +
        controls.model.value;
      var entry = data.d[key];
      if (!entry) return;
      out.bpp.textContent = entry.b;
      out.states.textContent = entry.s;
      out.gpus.textContent = entry.g;
      drawBar(out.bar, entry, data.w);
      root.querySelectorAll("[data-legend]").forEach(function (item, i) {
        item.hidden = !(entry.p[i] > 0);  // no master copy: no master in the legend
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
    document.querySelectorAll('.dl-widget[data-widget="optimizer"]').forEach(initOptimizer);
  }

  // Material's instant navigation announces each new page on document$; without it, the
  // page is ready once the DOM is.
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
