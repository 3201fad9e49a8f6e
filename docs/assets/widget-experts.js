/* distlesson expert-parallelism widget: look the library's results up and fill the outputs.
 *
 * The data in <script type="application/json" class="dl-widget-data"> was written at build
 * by distlesson.pages.experts_widget for every model, expert-parallel degree and capacity
 * factor, formatted for the page's language; a setting the library refuses carries its
 * reason. Nothing here computes a result. No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;

  core.register("experts", function (root, data, controls, out) {
    var fitsLabel = root.querySelector('output[data-out="fits"]').closest(".dl-widget-output")
      .querySelector("dt");
    return function update() {
      var key = core.key(controls, ["model", "ep", "capacity"], "-");
      var entry = data.d[key];
      if (!entry) return;
      var dash = data.w.dash;
      out.experts.textContent = entry.x || entry.e;
      out.bytes.textContent = entry.x ? dash : entry.b;
      out.time.textContent = entry.x ? dash : entry.t;
      out.memory.textContent = entry.x ? dash : entry.m;
      out.fits.textContent = entry.x ? dash : entry.f;
      fitsLabel.textContent = data.w.fits[controls.model.value];
      root.setAttribute("data-setting", key);
    };
  });
})();
