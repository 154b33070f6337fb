// The web console's progressive enhancement: keyboard shortcuts on the review queue. Every page
// works without it. Served from the service (CSP script-src 'self'); no inline script anywhere.
(function () {
  'use strict';
  var items = Array.prototype.slice.call(document.querySelectorAll('ol.queue > li.item[id]'));
  if (items.length === 0) return;
  var current = -1;

  function select(index) {
    if (index < 0 || index >= items.length) return;
    if (current >= 0) items[current].classList.remove('current');
    current = index;
    items[current].classList.add('current');
    items[current].focus();
  }

  function typing(target) {
    var tag = target && target.tagName;
    return tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || (target && target.isContentEditable);
  }

  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    var item = current >= 0 ? items[current] : null;
    switch (event.key) {
      case 'j':
        select(current + 1);
        break;
      case 'k':
        select(current <= 0 ? 0 : current - 1);
        break;
      case 'a':
        if (!item) return;
        var approve = item.querySelector('form.approve');
        if (approve) approve.requestSubmit();
        break;
      case 'r':
        if (!item) return;
        var reason = item.querySelector('[data-role="reason"]');
        if (reason) reason.focus();
        break;
      case 'o':
        if (!item) return;
        var open = item.querySelector('[data-action="open"]');
        if (open) open.click();
        break;
      default:
        return;
    }
    event.preventDefault();
  });
})();
