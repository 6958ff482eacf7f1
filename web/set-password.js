'use strict';
/**
 * The one-time set-password page. The link's secret is in its fragment (`#ldk_pwl_…`), which the
 * browser never sends to a server: this script reads it, posts it with the new password to
 * POST /api/auth/password-link, and removes it from the address bar.
 */
(function () {
  var session = window.labdeskSession;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var form = $('password-form');
  var button = $('set-button');
  var message = $('message');
  var token = window.location.hash.slice(1);
  window.history.replaceState(null, '', window.location.pathname);

  function say(text, kind) {
    message.textContent = text;
    message.className = 'message ' + (kind || '');
  }

  if (!/^ldk_pwl_/.test(token)) {
    form.hidden = true;
    say('This page needs the whole link you were given (it ends with #ldk_pwl_…). Ask an administrator for a new one.', 'error');
    return;
  }

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    var password = $('new-password').value;
    if (password !== $('repeat-password').value) {
      say('The two passwords differ.', 'error');
      $('repeat-password').select();
      return;
    }
    button.disabled = true;
    say('Setting your password…', 'info');
    var reply = await session.api('POST', '/api/auth/password-link', { token: token, new_password: password }, '');
    button.disabled = false;
    if (reply.status === 200) {
      form.hidden = true;
      say('Your password is set and you are signed in.', 'ok');
      window.location.assign('/');
    } else {
      say('Could not set the password: ' + session.detailOf(reply.body) + '.', 'error');
    }
  });
})();
