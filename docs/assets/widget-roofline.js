/* distlesson roofline widget: look the library's results up, fill the outputs, move the
 * roof and the points.
 *
 * The data in <script type="application/json" class="dl-widget-data"> was written at build
 * by distlesson.pages.roofline_widget for every GPU and decode batch, formatted for the
 * page's language, with the plot's coordinates in the SVG's units. Nothing here computes a
 * result. No request leaves the page.
 */
(function () {
  "use strict";

  function initRoofline(root) {
    if (root.getAttribute("data-ready") === "true") return;
    var source = root.querySelector("script.dl-widget-data");
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var controls = {}, out = {}, plot = {};
    root.querySelectorAll("select[data-in]").forEach(function (select) {
      controls[select.getAttribute("data-in")] = select;
    });
    root.querySelectorAll("[data-out]").forEach(function (node) {
      out[node.getAttribute("data-out")] = node;
    });
    root.querySelectorAll("[data-plot]").forEach(function (node) {
      plot[node.getAttribute("data-plot")] = node;
    });

    function update() {
      var gpu = data.g[controls.gpu.value];
      var key = controls.gpu.value + "/" + controls.batch.value;
      var entry = data.d[key];
      if (!gpu || !entry) return;
      out.ridge.textContent = gpu.r;
      out["decode-intensity"].textContent = entry.i;
      out["decode-share"].textContent = entry.s;
      out["decode-bound"].textContent = data.w.bound[entry.m ? 1 : 0];
      out["decode-bound"].setAttribute("data-memory-bound", entry.m ? "true" : "false");
      out["training-intensity"].textContent = gpu.ti;
      out["training-share"].textContent = gpu.ts;
      plot.roof.setAttribute("d", gpu.R);
      plot.ridge.setAttribute("x1", gpu.rx);
      plot.ridge.setAttribute("x2", gpu.rx);
      plot.training.setAttribute("cx", gpu.T[0]);
      plot.training.setAttribute("cy", gpu.T[1]);
      plot.decode.setAttribute("cx", entry.P[0]);
      plot.decode.setAttribute("cy", entry.P[1]);
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
    document.querySelectorAll('.dl-widget[data-widget="roofline"]').forEach(initRoofline);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
