/* distlesson widget core: what every widget script shares.
 *
 * Each widget carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library for every setting of its controls and already
 * formatted for the page's language. A widget script registers a builder with
 * window.distlessonWidgets.register(name, build); the core reads the data, finds the
 * <select data-in> controls and the [data-out] outputs, and calls the update that build
 * returns on every change. Nothing here computes a result. No request leaves the page.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";

  // An SVG element with these attributes, appended to parent when there is one.
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  // The nodes under root that carry attr, by the attribute's value.
  function byAttribute(root, selector, attr) {
    var found = {};
    root.querySelectorAll(selector).forEach(function (node) {
      found[node.getAttribute(attr)] = node;
    });
    return found;
  }

  // The key of the current setting: the named controls' values joined by sep.
  function key(controls, names, sep) {
    return names.map(function (name) { return controls[name].value; }).join(sep);
  }

  // Show the library's refusal of a setting in out.message; hide it for a valid one.
  function refusal(out, entry, valid) {
    out.message.textContent = valid ? "" : (entry ? entry.e : "");
    out.message.hidden = valid;
  }

  // Empty an SVG; hide it (and report false) where the library refused the setting.
  function clearSvg(svg, entry) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!entry || entry.e) {
      svg.removeAttribute("viewBox");
      svg.style.display = "none";
      return false;
    }
    svg.style.display = "";
    return true;
  }

  // Right-to-left letters (Hebrew, Arabic, Persian; not the Persian digits, which read
  // left to right inside a number).
  var RTL_LETTERS = /[\u0590-\u05ff\u0600-\u065f\u066e-\u06ef\u06fa-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;

  // Text for an SVG that runs left to right: on a right-to-left page, a label with
  // right-to-left letters goes inside a right-to-left isolate (U+2067 ... U+2069), so that
  // "GB", "tp" and the digits stay where its reader expects them. The build applies the
  // same rule to the labels it draws (distlesson/pages/widget_html.py, isolate).
  var rightToLeft = new WeakMap();  // widget root -> whether its page reads right to left

  function isolate(node, text) {
    if (!RTL_LETTERS.test(text)) return text;
    var root = node.closest(".dl-widget") || document.documentElement;
    if (!rightToLeft.has(root)) {
      rightToLeft.set(root, getComputedStyle(root).direction === "rtl");
    }
    return rightToLeft.get(root) ? "\u2067" + text + "\u2069" : text;
  }

  // An SVG <text> with these attributes and text, appended to parent: every widget writes
  // its words in an SVG through here.
  function label(parent, attrs, text) {
    var node = el("text", attrs, parent);
    node.textContent = isolate(parent, text);
    return node;
  }

  // The tooltip of an SVG element, isolated as a label is.
  function title(parent, text) {
    el("title", {}, parent).textContent = isolate(parent, text);
  }

  // A time or size axis under a plot: ticks on whole units labelled with labels[t], at
  // the first step of steps that gives at most most ticks, and a caption below.
  function axis(svg, o) {
    el("line", { x1: o.left, y1: o.base, x2: o.left + o.plot, y2: o.base,
      stroke: "currentColor", "stroke-width": 1 }, svg);
    var step = o.steps[o.steps.length - 1];
    for (var i = 0; i < o.steps.length; i++) {
      if (o.span / o.steps[i] <= o.most) { step = o.steps[i]; break; }
    }
    for (var t = 0; t <= o.span; t += step) {
      el("line", { x1: o.x(t), y1: o.base, x2: o.x(t), y2: o.base + 4, stroke: "currentColor",
        "stroke-width": 1 }, svg);
      label(svg, { x: o.x(t), y: o.base + 15, "text-anchor": "middle",
        class: "dl-axis-text" }, o.labels[t]);
    }
    label(svg, { x: o.left + o.plot / 2, y: o.base + 34, "text-anchor": "middle",
      class: "dl-axis-text" }, o.caption);
  }

  // One stacked bar of entry.p (values) and entry.q (their text) on an axis from 0 to
  // o.span (labels o.labels, spacings o.steps, at most o.most ticks, caption o.caption);
  // o.names[i] titles part i, o.colours[i] fills it and o.inks[i] writes on it (both from
  // the library's palette, distlesson/render/palette.py, carried in the widget's data);
  // o.top (default 6) leaves room above the bar. Returns the scale, for marks over the bar.
  function stackedBar(svg, entry, o) {
    var WIDTH = 720, LEFT = 14, RIGHT = 14, TOP = o.top || 6, BAR = 30, AXIS = 44;
    var plot = WIDTH - LEFT - RIGHT;
    var x = function (v) { return LEFT + (v / o.span) * plot; };
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + (TOP + BAR + AXIS));
    var start = 0;
    for (var i = 0; i < entry.p.length; i++) {
      var value = entry.p[i];
      if (value <= 0) continue;
      var x0 = x(start), w = x(start + value) - x0;
      var rect = el("rect", { x: x0, y: TOP, width: w, height: BAR, fill: o.colours[i],
        "data-part": i }, svg);
      title(rect, o.names[i] + ": " + entry.q[i]);
      if (w >= 8 * entry.q[i].length + 6) {
        label(svg, { x: x0 + w / 2, y: TOP + BAR / 2, "text-anchor": "middle",
          "dominant-baseline": "central", class: "dl-op-text",
          fill: o.inks[i] }, entry.q[i]);
      }
      start += value;
    }
    axis(svg, { left: LEFT, plot: plot, base: TOP + BAR + 2, span: o.span, x: x,
      steps: o.steps, most: o.most || 12, labels: o.labels, caption: o.caption });
    return { x: x, top: TOP, bar: BAR };
  }

  // A pipeline's timeline: entry.T the makespan, entry.o the simulated operations (columns
  // s stage, k kind, m microbatch, c chunk if any, a start, z end), one row per stage with
  // its idle time hatched. words: stage[s], n[i] (integers as the page writes them),
  // kind[k], mb, chunk, time. hatch: the id of the hatching pattern, unique on the page.
  // words.phase: the colours of F, B and W from the library's palette (fill; light, for later
  // chunks of an interleaved stage, opaque so that the idle hatching does not show through;
  // ink, the text on a fill), the same as the static Gantt charts'.

  function timeline(svg, entry, words, hatch) {
    var WIDTH = 720, LEFT = 84, RIGHT = 14, TOP = 6, ROW = 24, BAR = 18, AXIS = 44;
    if (!clearSvg(svg, entry)) return;
    var ops = entry.o, span = entry.T, stages = 0, chunked = !!ops.c, i;
    for (i = 0; i < ops.s.length; i++) stages = Math.max(stages, ops.s[i] + 1);
    var plot = WIDTH - LEFT - RIGHT;
    var x = function (t) { return LEFT + (t / span) * plot; };
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + (TOP + stages * ROW + AXIS));

    var defs = el("defs", {}, svg);
    var pattern = el("pattern", { id: hatch, width: 6, height: 6,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "currentColor", "stroke-width": 1.5,
      "stroke-opacity": 0.35 }, pattern);

    // Rows: the stage's label and its idle background (a path, so that <rect>s are ops).
    for (var s = 0; s < stages; s++) {
      var y = TOP + s * ROW + (ROW - BAR) / 2;
      el("path", { class: "dl-idle", d: "M" + LEFT + " " + y + "h" + plot + "v" + BAR +
        "h" + (-plot) + "z", fill: "url(#" + hatch + ")" }, svg);
      label(svg, { x: LEFT - 8, y: y + BAR / 2, "text-anchor": "end",
        "dominant-baseline": "central", class: "dl-axis-text" }, words.stage[s]);
    }

    // One rect per operation, where the simulator placed it.
    for (i = 0; i < ops.s.length; i++) {
      var kind = ops.k.charAt(i), chunk = chunked ? ops.c[i] : 0;
      var x0 = x(ops.a[i]), w = x(ops.z[i]) - x0, top = TOP + ops.s[i] * ROW + (ROW - BAR) / 2;
      var rect = el("rect", { x: x0, y: top, width: w, height: BAR,
        fill: (chunk > 0 ? words.phase.light : words.phase.fill)[kind], "data-kind": kind,
        "data-stage": ops.s[i], "data-microbatch": ops.m[i], "data-chunk": chunk }, svg);
      var number = words.n[ops.m[i] + 1];
      var comma = words.comma || ", ";  // Persian has its own comma
      title(rect, words.kind[kind] + comma + words.mb + " " + number +
        (chunked ? comma + words.chunk + " " + words.n[chunk + 1] : ""));
      if (w >= 7 * number.length + 5) {
        label(svg, { x: x0 + w / 2, y: top + BAR / 2, "text-anchor": "middle",
          "dominant-baseline": "central", class: "dl-op-text",
          fill: chunk > 0 ? "#000000" : words.phase.ink[kind] }, number);
      }
    }

    // The time axis: ticks on whole units, labelled in the page's digits.
    axis(svg, { left: LEFT, plot: plot, base: TOP + stages * ROW + 2, span: span, x: x,
      steps: [1, 2, 5, 10, 20, 25, 50, 100], most: 10, labels: words.n, caption: words.time });
  }

  // The value that a table of distlesson/pages/widget_grid.py holds for the controls'
  // current setting: table.k names the controls it depends on, axes[name] lists each
  // control's values in the grid's order, table.i indexes table.u (-1: none).
  function lookup(table, axes, controls) {
    var at = 0;
    for (var j = 0; j < table.k.length; j++) {
      var values = axes[table.k[j]], position = values.indexOf(controls[table.k[j]].value);
      if (position < 0) return undefined;
      at = at * values.length + position;
    }
    var found = table.i[at];
    return found >= 0 ? table.u[found] : undefined;
  }

  // Run build(root, data, controls, out) once per widget root; it returns the update to
  // call now and on every change of a control.
  function mount(root, build) {
    if (root.getAttribute("data-ready") === "true") return;
    var source = root.querySelector("script.dl-widget-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var controls = byAttribute(root, "select[data-in]", "data-in");
    var out = byAttribute(root, "[data-out]", "data-out");
    var update = build(root, data, controls, out);
    Object.keys(controls).forEach(function (name) {
      controls[name].addEventListener("change", update);
      controls[name].addEventListener("input", update);
    });
    update();
    root.setAttribute("data-ready", "true");
  }

  // Mount build on every .dl-widget[data-widget=name] of each page. Material's instant
  // navigation announces each new page on document$; without it, the page is ready once
  // the DOM is.
  function register(name, build) {
    function init() {
      document.querySelectorAll('.dl-widget[data-widget="' + name + '"]')
        .forEach(function (root) { mount(root, build); });
    }
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(init);
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", init);
    } else {
      init();
    }
  }

  // The exercises a reader has solved, kept in the browser (localStorage) under one key
  // as {id: detail}: the exercises page counts them; a widget marks its goal reached.
  // Storage may be unavailable (private mode, file://): then nothing is kept.
  var SOLVED_KEY = "distlesson-solved";

  function solvedAll() {
    try {
      var stored = JSON.parse(window.localStorage.getItem(SOLVED_KEY) || "{}");
      return stored && typeof stored === "object" ? stored : {};
    } catch (error) {
      return {};
    }
  }

  function markSolved(id, detail) {
    var all = solvedAll();
    all[id] = detail === undefined ? true : detail;
    try {
      window.localStorage.setItem(SOLVED_KEY, JSON.stringify(all));
    } catch (error) { /* storage refused: the page still shows the result */ }
    document.dispatchEvent(new CustomEvent("distlesson:solved", { detail: { id: id } }));
  }

  // Forget the given ids (a page's reset); the other pages' entries stay.
  function forgetSolved(ids) {
    var all = solvedAll();
    ids.forEach(function (id) { delete all[id]; });
    try {
      window.localStorage.setItem(SOLVED_KEY, JSON.stringify(all));
    } catch (error) { /* storage refused: nothing was kept either */ }
  }

  window.distlessonWidgets = { el: el, label: label, title: title, isolate: isolate,
    byAttribute: byAttribute, key: key, refusal: refusal, clearSvg: clearSvg, axis: axis,
    stackedBar: stackedBar, timeline: timeline, lookup: lookup, register: register,
    solved: { all: solvedAll, mark: markSolved, forget: forgetSolved, key: SOLVED_KEY } };
})();
