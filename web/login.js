'use strict';
/**
 * The sign-in page: email and password to POST /api/auth/login, which answers with the
 * HttpOnly session cookie; then on to `?next=` (a path of this site only) or the start page.
 */
(function () {
  var session = window.labdeskSession;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var form = $('login-form');
  var button = $('login-button');
  var message = $('message');

  function say(text, kind) {
    message.textContent = text;
    message.className = 'message ' + (kind || '');
  }

  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    button.disabled = true;
    say('Signing in…', 'info');
    var reply = await session.api('POST', '/api/auth/login', { email: $('email').value, password: $('password').value }, '');
    button.disabled = false;
    if (reply.status === 200) {
      say('Signed in.', 'ok');
      window.location.assign(session.nextPath());
    } else if (reply.status === 401) {
      say('Wrong email or password.', 'error');
      $('password').select();
    } else {
      say('Could not sign in: ' + session.detailOf(reply.body) + '.', 'error');
    }
  });
})();
