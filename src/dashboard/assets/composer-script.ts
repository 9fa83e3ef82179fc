/**
 * composer.js: as the member types, posts the form to the composer's check (the API's dry run) and
 * shows each network's count against its budget, and the errors and warnings beside their fields.
 */
export const COMPOSER_SCRIPT = `'use strict';
(function () {
  var form = document.getElementById('composer');
  if (!form || !form.dataset.check) return;
  var timer = null;
  var sequence = 0;
  function csrf() { var f = form.querySelector('input[name="_csrf"]'); return f ? f.value : ''; }
  function setList(list, messages, kind) {
    while (list.firstChild) list.removeChild(list.firstChild);
    messages.forEach(function (m) {
      var li = document.createElement('li');
      if (kind) li.className = kind;
      li.textContent = m;
      list.appendChild(li);
    });
  }
  function show(answer) {
    var counts = {};
    (answer.counts || []).forEach(function (c) {
      var seen = counts[c.platform];
      if (!seen || c.length / c.limit > seen.length / seen.limit) counts[c.platform] = c;
    });
    form.querySelectorAll('[data-platform]').forEach(function (li) {
      var c = counts[li.dataset.platform];
      var out = li.querySelector('output');
      out.textContent = c ? c.length + ' / ' + c.limit + ' (as ' + c.format + ')' : '-';
      li.classList.toggle('over', !!c && c.length > c.limit);
      li.classList.toggle('unused', !c);
    });
    var byField = {};
    (answer.warnings || []).forEach(function (w) { (byField[w.field] = byField[w.field] || []).push(w.message); });
    form.querySelectorAll('[data-field-errors]').forEach(function (list) {
      var field = list.dataset.fieldErrors;
      setList(list, (answer.fields && answer.fields[field]) || [], 'error');
      (byField[field] || []).forEach(function (m) {
        var li = document.createElement('li'); li.className = 'warning'; li.textContent = m; list.appendChild(li);
      });
    });
  }
  function check() {
    var mine = ++sequence;
    var body = new URLSearchParams(new FormData(form));
    fetch(form.dataset.check, {
      method: 'POST', body: body, credentials: 'same-origin',
      headers: { 'X-CSRF-Token': csrf(), 'Accept': 'application/json' }
    }).then(function (r) { return r.ok ? r.json() : null; }).then(function (answer) {
      if (answer && mine === sequence) show(answer);
    }).catch(function () {});
  }
  function later() { clearTimeout(timer); timer = setTimeout(check, 300); }
  form.addEventListener('input', later);
  form.addEventListener('change', later);
  form.addEventListener('media-added', later);
  check();
})();
`
