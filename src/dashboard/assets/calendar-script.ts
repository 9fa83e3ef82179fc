/**
 * calendar.js: drag a scheduled post to another day to move it there at the same time of day. It
 * posts the post's reschedule form (the keyboard way to do the same) and reloads the week.
 */
export const CALENDAR_SCRIPT = `'use strict';
(function () {
  var calendar = document.getElementById('calendar');
  if (!calendar) return;
  var status = document.getElementById('calendar-status');
  var csrfField = document.querySelector('input[name="_csrf"]');
  var dragged = null;
  calendar.addEventListener('dragstart', function (e) {
    var card = e.target.closest && e.target.closest('[data-post]');
    if (!card) return;
    dragged = card;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', card.dataset.post);
  });
  calendar.addEventListener('dragend', function () {
    dragged = null;
    calendar.querySelectorAll('.drop-target').forEach(function (d) { d.classList.remove('drop-target'); });
  });
  calendar.addEventListener('dragover', function (e) {
    var day = e.target.closest && e.target.closest('[data-day]');
    if (!day || !dragged) return;
    e.preventDefault();
    day.classList.add('drop-target');
  });
  calendar.addEventListener('dragleave', function (e) {
    var day = e.target.closest && e.target.closest('[data-day]');
    if (day) day.classList.remove('drop-target');
  });
  calendar.addEventListener('drop', function (e) {
    var day = e.target.closest && e.target.closest('[data-day]');
    if (!day || !dragged) return;
    e.preventDefault();
    var card = dragged;
    var body = new URLSearchParams();
    body.set('scheduledAt', day.dataset.day + 'T' + card.dataset.time);
    status.textContent = 'Moving the post...';
    fetch(card.dataset.reschedule, {
      method: 'POST', body: body, credentials: 'same-origin',
      headers: { 'X-CSRF-Token': csrfField ? csrfField.value : '', 'Accept': 'application/json' }
    }).then(function (r) { return r.json(); }).then(function (answer) {
      if (answer.ok) window.location.reload(); else status.textContent = answer.message;
    }).catch(function () { status.textContent = 'The post could not be moved; use its Reschedule form.'; });
  });
})();
`
