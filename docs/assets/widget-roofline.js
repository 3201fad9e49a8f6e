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

  var core = window.distlessonWidgets;

  core.register("roofline", function (root, data, controls, out) {
    var plot = core.byAttribute(root, "[data-plot]", "data-plot");
    return function update() {
      var gpu = data.g[controls.gpu.value];
      var key = core.key(controls, ["gpu", "batch"], "/");
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
    };
  });
})();
