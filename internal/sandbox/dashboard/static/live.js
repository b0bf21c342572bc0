// live.js refreshes the parts of a page marked data-live while the page is
// open: it fetches the page again every 2 seconds and swaps in those
// parts when they changed. Pages work the same without it (reload them).
(function () {
  'use strict';
  var parts = document.querySelectorAll('[data-live][id]');
  if (parts.length === 0 || !window.fetch || !window.DOMParser) {
    return;
  }
  var busy = false;
  function refresh() {
    if (busy || document.hidden) {
      return;
    }
    busy = true;
    fetch(window.location.href, {
      headers: {'Dashboard-Live': '1'},
      credentials: 'same-origin',
      cache: 'no-store'
    }).then(function (resp) {
      if (!resp.ok) {
        throw new Error('HTTP ' + resp.status);
      }
      return resp.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, 'text/html');
      parts.forEach(function (part) {
        var next = doc.getElementById(part.id);
        if (next && next.innerHTML !== part.innerHTML) {
          part.innerHTML = next.innerHTML;
        }
      });
    }).catch(function () {
      // The next tick tries again; a signed-out session stays as it is.
    }).then(function () {
      busy = false;
    });
  }
  window.setInterval(refresh, 2000);
  document.addEventListener('visibilitychange', refresh);
}());
