// Filters the table of contents; everything else on the page is static HTML.
(function () {
  "use strict";
  var input = document.getElementById("filter");
  if (!input) {
    return;
  }
  var items = Array.prototype.slice.call(document.querySelectorAll("#toc li"));
  input.addEventListener("input", function () {
    var needle = input.value.trim().toLowerCase();
    items.forEach(function (item) {
      var match = needle === "" || item.textContent.toLowerCase().indexOf(needle) !== -1;
      item.classList.toggle("hidden", !match);
    });
  });
})();
