'use strict';
/**
 * The start page of a signed-in person: who they are, their signed-in browsers (each can be
 * signed out), and their password. Until the web console exists, the way in to the other pages.
 */
(function () {
  var session = window.labdeskSession;
  var $ = function (id) {
    return document.getElementById(id);
  };
  var message = $('message');

  function say(text, kind) {
    message.textContent = text;
    message.className = 'message ' + (kind || '');
  }

  function toLogin() {
    window.location.assign('/login?next=/account');
  }

  async function showSessions() {
    var reply = await session.api('GET', '/api/me/sessions');
    if (reply.status === 401) return toLogin();
    var list = $('sessions');
    list.replaceChildren();
    (reply.body.items || []).forEach(function (item) {
      var entry = document.createElement('li');
      var text = document.createElement('span');
      text.textContent =
        (item.current ? 'This browser' : item.user_agent || 'A browser') +
        ' · signed in ' +
        new Date(item.created_at).toLocaleString() +
        (item.address ? ' from ' + item.address : '') +
        ' · last used ' +
        new Date(item.last_seen_at).toLocaleString();
      entry.appendChild(text);
      if (!item.current) {
        var end = document.createElement('button');
        end.type = 'button';
        end.className = 'link';
        end.textContent = 'Sign out';
        end.setAttribute('aria-label', 'Sign out the browser signed in ' + new Date(item.created_at).toLocaleString());
        end.addEventListener('click', async function () {
          var done = await session.api('DELETE', '/api/me/sessions/' + encodeURIComponent(item.session_id));
          say(
            done.status === 204 ? 'That browser is signed out.' : 'Could not sign it out: ' + session.detailOf(done.body) + '.',
            done.status === 204 ? 'ok' : 'error',
          );
          showSessions();
        });
        entry.appendChild(end);
      }
      list.appendChild(entry);
    });
  }

  $('signout').addEventListener('click', async function () {
    await session.signOut();
    toLogin();
  });

  $('password-form').addEventListener('submit', async function (event) {
    event.preventDefault();
    var current = $('current-password').value;
    var body = { new_password: $('new-password').value };
    if (current) body.current_password = current;
    var reply = await session.api('PUT', '/api/me/password', body);
    if (reply.status === 204) {
      $('password-form').reset();
      say('Your password is changed; your other sessions are signed out.', 'ok');
      showSessions();
    } else {
      say('Could not change the password: ' + session.detailOf(reply.body) + '.', 'error');
    }
  });

  (async function start() {
    var who = await session.whoAmI();
    if (who.status !== 200) return toLogin();
    $('who-name').textContent = who.user.name || who.user.email;
    $('who-email').textContent = who.user.name ? '<' + who.user.email + '>' : '';
    showSessions();
  })();
})();
