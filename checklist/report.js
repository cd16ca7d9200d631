"use strict";
(function () {
  var table = document.getElementById("files");
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var verdict = document.getElementById("f-verdict");
  var code = document.getElementById("f-code");
  var search = document.getElementById("f-search");
  var shown = document.getElementById("shown-count");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button.code-filter"));
  document.getElementById("controls").hidden = false;
  buttons.forEach(function (b) { b.hidden = false; });

  // A long path or fingerprint is shown short, whole once opened;
  // data-full holds it whole for the search and for a copy, opened or not.
  function whole(node) {
    node.querySelectorAll("[data-full]").forEach(function (d) {
      var c = document.createElement("code");
      c.textContent = d.dataset.full;
      d.replaceWith(c);
    });
    return node;
  }
  var texts = new Map();
  rows.forEach(function (r) { texts.set(r, whole(r.cloneNode(true)).textContent.toLowerCase()); });

  document.addEventListener("copy", function (e) {
    var sel = window.getSelection();
    if (!e.clipboardData || !sel || sel.rangeCount === 0 || sel.isCollapsed) { return; }
    var range = sel.getRangeAt(0);
    var at = range.commonAncestorContainer;
    var inside = (at.nodeType === 1 ? at : at.parentElement).closest("[data-full]");
    var text;
    if (inside) {
      text = inside.dataset.full;
    } else {
      var frag = range.cloneContents();
      if (!frag.querySelector("[data-full]")) { return; }
      var box = document.createElement("div");
      box.className = "copy-box";
      box.appendChild(whole(frag));
      document.body.appendChild(box);
      text = box.innerText;
      document.body.removeChild(box);
    }
    e.clipboardData.setData("text/plain", text);
    e.preventDefault();
  });

  function apply() {
    var v = verdict.value, c = code.value, q = search.value.trim().toLowerCase();
    var n = 0;
    rows.forEach(function (r) {
      var ok = (v === "" || r.dataset.verdict === v) &&
        (c === "" || (" " + r.dataset.codes + " ").indexOf(" " + c + " ") >= 0) &&
        (q === "" || texts.get(r).indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) { n++; }
    });
    shown.textContent = n + " fichier" + (n > 1 ? "s" : "") + " affiché" + (n > 1 ? "s" : "");
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", b.dataset.code === c ? "true" : "false"); });
  }
  verdict.addEventListener("change", apply);
  code.addEventListener("change", apply);
  search.addEventListener("input", apply);
  buttons.forEach(function (b) {
    b.addEventListener("click", function () {
      code.value = code.value === b.dataset.code ? "" : b.dataset.code;
      apply();
    });
  });
  document.getElementById("f-reset").addEventListener("click", function () {
    verdict.value = ""; code.value = ""; search.value = ""; apply();
  });

  var collator = new Intl.Collator("fr", { numeric: true, sensitivity: "base" });
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
    var b = th.querySelector("button");
    if (!b) { return; }
    b.addEventListener("click", function () {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      rows.sort(function (a, z) {
        var x = a.cells[col].dataset.sort || a.cells[col].textContent;
        var y = z.cells[col].dataset.sort || z.cells[col].textContent;
        return asc ? collator.compare(x, y) : collator.compare(y, x);
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  apply();
})();
