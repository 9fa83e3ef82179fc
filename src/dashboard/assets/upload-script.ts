/**
 * upload.js: a file goes straight to storage through the API's presigned upload (PUT with a
 * progress bar from XMLHttpRequest's upload events), then is registered in the media library.
 * In the composer the new asset is added to the picker, ticked.
 */
export const UPLOAD_SCRIPT = `'use strict';
(function () {
  var box = document.querySelector('[data-upload]');
  if (!box) return;
  var input = box.querySelector('input[type="file"]');
  var alt = box.querySelector('#upload-alt');
  var bar = box.querySelector('progress');
  var status = box.querySelector('[role="status"]');
  var csrfField = document.querySelector('input[name="_csrf"]');
  function say(text) { status.textContent = text; }
  function post(url, body) {
    return fetch(url, {
      method: 'POST', credentials: 'same-origin', body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrfField ? csrfField.value : '' }
    }).then(function (r) {
      return r.json().then(function (j) { if (!r.ok) throw new Error(j.error || 'Upload refused.'); return j; });
    });
  }
  function put(ticket, file) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open('PUT', ticket.uploadUrl);
      // The browser sends Content-Length itself (the file's size, the one signed); it refuses to be told.
      Object.keys(ticket.headers).forEach(function (k) {
        if (k.toLowerCase() !== 'content-length') xhr.setRequestHeader(k, ticket.headers[k]);
      });
      xhr.upload.addEventListener('progress', function (e) {
        if (e.lengthComputable) { bar.value = Math.round((e.loaded / e.total) * 100); }
      });
      xhr.addEventListener('load', function () {
        if (xhr.status >= 200 && xhr.status < 300) resolve(); else reject(new Error('Storage refused the file.'));
      });
      xhr.addEventListener('error', function () { reject(new Error('The upload failed.')); });
      xhr.send(file);
    });
  }
  function addToPicker(asset) {
    var picker = document.getElementById('media-picker');
    if (!picker) { window.location.reload(); return; }
    var li = document.createElement('li');
    var box = document.createElement('input');
    box.type = 'checkbox'; box.name = 'mediaIds'; box.value = asset.id; box.id = 'media-' + asset.id; box.checked = true;
    var label = document.createElement('label');
    label.htmlFor = box.id;
    label.textContent = (asset.altText || asset.id) + ' ' + asset.type;
    li.appendChild(box); li.appendChild(label); picker.appendChild(li);
    var form = box.form; if (form) form.dispatchEvent(new Event('media-added'));
  }
  input.addEventListener('change', function () {
    var file = input.files && input.files[0];
    if (!file) return;
    bar.value = 0;
    say('Uploading ' + file.name + '...');
    post(box.dataset.upload, { filename: file.name, contentType: file.type, sizeBytes: file.size })
      .then(function (ticket) {
        return put(ticket, file).then(function () {
          return post(box.dataset.register, {
            type: file.type.indexOf('video/') === 0 ? 'VIDEO' : 'IMAGE',
            storageKey: ticket.storageKey, url: ticket.url, altText: alt && alt.value ? alt.value : null
          });
        });
      })
      .then(function (asset) { bar.value = 100; say('Uploaded ' + file.name + '.'); addToPicker(asset); input.value = ''; })
      .catch(function (err) { say(err.message); });
  });
})();
`
