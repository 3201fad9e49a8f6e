/* A wide table scrolls sideways inside its box (Material's .md-typeset__scrollwrap); on a
   phone nothing showed that it could. Each such box is wrapped in .dl-scroll, whose edges
   fade (CSS) on the side where more of the table lies: data-more="end", "start" or "both".
   The side is logical: on Persian pages the table starts on the right and continues left. */
(function () {
  "use strict";
  function mark(wrapper, box) {
    var max = box.scrollWidth - box.clientWidth;
    var pos = Math.abs(box.scrollLeft);  /* negative when scrolled on right-to-left pages */
    var more = [];
    if (max > 1 && pos > 1) more.push("start");
    if (max > 1 && pos < max - 1) more.push("end");
    wrapper.dataset.more = more.length === 2 ? "both" : (more[0] || "none");
  }
  function setup() {
    document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (box) {
      var wrapper = document.createElement("div");
      wrapper.className = "dl-scroll";
      box.parentNode.insertBefore(wrapper, box);
      wrapper.appendChild(box);
      var update = function () { mark(wrapper, box); };
      box.addEventListener("scroll", update, { passive: true });
      window.addEventListener("resize", update);
      update();
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setup);
  } else {
    setup();
  }
})();
