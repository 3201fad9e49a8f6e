/* distlesson exercises: check the reader's numbers against the library's, count what is solved.
 *
 * The page carries its data in <script type="application/json" class="dl-widget-data">,
 * written at build by the distlesson library (distlesson/pages/exercises_widget.py): each
 * numeric part's answer in the unit the reader types it in, its relative tolerance and the
 * messages to show, already in the page's language. Nothing here computes an answer: the
 * script reads the number the reader typed, the way a reader of the page's language writes
 * it, and compares it with the library's. What is solved is kept in the browser with the
 * other widgets' goals (window.distlessonWidgets.solved, widget-core.js); the pipeline
 * widgets mark "bubble-goal" there themselves. No request leaves the page.
 */
(function () {
  "use strict";

  var core = window.distlessonWidgets;
  var LATIN = "0123456789";
  var EASTERN = ["۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩"];  // Persian, Arabic-Indic

  // Latin digits for the Persian and Arabic-Indic ones.
  function latinDigits(text) {
    return text.replace(/[۰-۹٠-٩]/g, function (c) {
      var i = EASTERN[0].indexOf(c);
      return LATIN.charAt(i >= 0 ? i : EASTERN[1].indexOf(c));
    });
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
  }

  // The number in text, written with one of rules.decimal as the decimal separator and
  // rules.group between groups of three digits; NaN when it cannot be read that way (a
  // Catalan "9.93" is refused, not read as 993). A trailing % or unit sign is ignored.
  function parseNumber(text, rules) {
    var s = latinDigits(String(text)).trim().replace(/\s*[%٪$]$/, "").replace(/^\$\s*/, "");
    var negative = /^[-\u2212]/.test(s);
    if (negative) s = s.slice(1);
    var decimals = rules.decimal.map(escapeRegExp).join("|");
    var groups = rules.group.map(escapeRegExp).join("|");
    var parts = s.split(new RegExp(decimals));
    if (parts.length > 2 || !parts[0] && !parts[1]) return NaN;
    var whole = parts[0] || "0", fraction = parts.length === 2 ? parts[1] : "";
    if (!/^\d*$/.test(fraction) || (parts.length === 2 && !fraction)) return NaN;
    if (!/^\d+$/.test(whole)) {
      var grouped = new RegExp("^\\d{1,3}((" + groups + ")\\d{3})+$");
      var match = whole.match(grouped);
      if (!match) return NaN;
      var separator = match[2];
      if (whole.split(separator).length - 1 !== (whole.match(new RegExp(groups, "g")) || []).length) {
        return NaN;  // one kind of separator only: "1,234.567,8" is not a number
      }
      whole = whole.split(separator).join("");
    }
    var value = Number(whole + (fraction ? "." + fraction : ""));
    return negative ? -value : value;
  }

  // Whether x is within the relative tolerance t of the library's value v (exact if t is 0).
  function accepted(x, v, t) {
    if (t === 0) return x === v;
    return Math.abs(x - v) <= t * Math.abs(v) * (1 + 1e-12);
  }

  function localDigits(text, digits) {
    return String(text).replace(/[0-9]/g, function (c) { return digits.charAt(Number(c)); });
  }

  core.register("exercises", function (root, data, controls, out) {
    var words = data.w;
    var partIds = [];
    Object.keys(data.parts).forEach(function (id) {
      partIds = partIds.concat(data.parts[id]);
    });

    function feedback(part, text, state) {
      var node = part.querySelector("[data-feedback]");
      if (!node) return;  // a goal part shows its state in [data-goal]
      node.textContent = text;
      node.hidden = !text;
      if (state) node.setAttribute("data-state", state); else node.removeAttribute("data-state");
    }

    // The setting that reached the goal, as the widget stored it: {pp, m, schedule,
    // bubble_text}; a bare mark says only that it was reached.
    function goalText(detail) {
      if (!detail || typeof detail !== "object" || detail.pp === undefined ||
          detail.m === undefined) return words.goal_reached;
      var schedule = words.schedules[detail.schedule] || detail.schedule || "";
      var text = words.goal_done
        .replace("{pp}", localDigits(detail.pp, words.digits))
        .replace("{m}", localDigits(detail.m, words.digits))
        .replace("{schedule}", schedule).replace(/[,،]\s*\.$/, ".");
      if (detail.bubble_text) {
        text += " " + words.goal_bubble.replace("{bubble}",
          localDigits(detail.bubble_text, words.digits));
      }
      return text;
    }

    // Show every part and exercise as the store says, and the count.
    function render() {
      var solved = core.solved.all();
      var count = 0;
      root.querySelectorAll("[data-part]").forEach(function (part) {
        var id = part.getAttribute("data-part");
        var kind = part.getAttribute("data-kind");
        var done = Object.prototype.hasOwnProperty.call(solved, id);
        part.setAttribute("data-solved", done ? "true" : "false");
        if (kind === "goal") {
          var goal = part.querySelector("[data-goal]");
          goal.textContent = done ? goalText(solved[id]) : words.goal_todo;
          goal.setAttribute("data-state", done ? "right" : "todo");
        } else if (kind === "open") {
          var button = part.querySelector("[data-done]");
          var revealed = part.querySelector("[data-answer]").open;
          button.hidden = done || !revealed;
          feedback(part, done ? words.open_done : "", done ? "right" : "");
        } else if (done) {
          feedback(part, data.num[id].ok, "right");
          var input = part.querySelector("[data-input]");
          if (!input.value && solved[id] && solved[id].answer) input.value = solved[id].answer;
        } else if (part.querySelector("[data-feedback]").getAttribute("data-state") ===
                   "right") {
          feedback(part, "", "");  // reset elsewhere: forget the old verdict
        }
      });
      data.ids.forEach(function (id) {
        var all = data.parts[id].every(function (part) {
          return Object.prototype.hasOwnProperty.call(solved, part);
        });
        var section = root.querySelector('[data-exercise="' + id + '"]');
        section.setAttribute("data-solved", all ? "true" : "false");
        section.querySelector("[data-badge]").hidden = !all;
        if (all) count += 1;
      });
      out.count.textContent = words.count[count];
      root.setAttribute("data-solved-count", String(count));
    }

    root.querySelectorAll('[data-kind="numeric"]').forEach(function (part) {
      var id = part.getAttribute("data-part");
      var form = part.querySelector("[data-form]");
      var input = part.querySelector("[data-input]");
      form.hidden = false;
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var x = parseNumber(input.value, data.parse);
        if (isNaN(x)) {
          feedback(part, words.unreadable, "unreadable");
        } else if (accepted(x, data.num[id].v, data.num[id].t)) {
          core.solved.mark(id, { answer: input.value });
        } else {
          feedback(part, data.num[id].no, "wrong");
        }
      });
    });

    root.querySelectorAll('[data-kind="open"]').forEach(function (part) {
      var id = part.getAttribute("data-part");
      part.querySelector("[data-answer]").addEventListener("toggle", render);
      part.querySelector("[data-done]").addEventListener("click", function () {
        core.solved.mark(id, { done: true });
      });
    });

    root.querySelectorAll("[data-goal]").forEach(function (goal) { goal.hidden = false; });
    root.querySelector("[data-progress]").hidden = false;
    out.reset.addEventListener("click", function () {
      core.solved.forget(partIds);
      root.querySelectorAll("[data-input]").forEach(function (input) { input.value = ""; });
      root.querySelectorAll("[data-part]").forEach(function (part) { feedback(part, "", ""); });
      root.querySelectorAll("[data-answer]").forEach(function (details) {
        details.open = false;
      });
      render();
    });

    // A widget on this page, or another tab, may mark a goal: show it at once.
    document.addEventListener("distlesson:solved", render);
    window.addEventListener("storage", function (event) {
      if (event.key === core.solved.key || event.key === null) render();
    });
    return render;
  });
})();
