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
      var tick = el("text", { x: o.x(t), y: o.base + 15, "text-anchor": "middle",
        class: "dl-axis-text" }, svg);
      tick.textContent = o.labels[t];
    }
    var caption = el("text", { x: o.left + o.plot / 2, y: o.base + 34,
      "text-anchor": "middle", class: "dl-axis-text" }, svg);
    caption.textContent = o.caption;
  }

  // One stacked bar of entry.p (values) and entry.q (their text), scaled to the grid's
  // longest bar (words.n.length - 1); names[i] titles part i, part dark is white-on-colour.
  function stackedBar(svg, entry, words, names, dark, steps) {
    var WIDTH = 720, LEFT = 14, RIGHT = 14, TOP = 6, BAR = 30, AXIS = 44;
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
      title.textContent = names[i] + ": " + entry.q[i];
      if (w >= 8 * entry.q[i].length + 6) {
        var text = el("text", { x: x0 + w / 2, y: TOP + BAR / 2, "text-anchor": "middle",
          "dominant-baseline": "central", class: "dl-op-text",
          fill: i === dark ? "#ffffff" : "#000000" }, svg);
        text.textContent = entry.q[i];
      }
      start += value;
    }
    axis(svg, { left: LEFT, plot: plot, base: TOP + BAR + 2, span: span, x: x, steps: steps,
      most: 12, labels: words.n, caption: words.axis });
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

  window.distlessonWidgets = { el: el, byAttribute: byAttribute, key: key, refusal: refusal,
    clearSvg: clearSvg, axis: axis, stackedBar: stackedBar, register: register,
    solved: { all: solvedAll, mark: markSolved, key: SOLVED_KEY } };
})();
