'use strict';
/**
 * GraphiQL on this server's own copies of GraphiQL and React (no CDN). Requests go to /graphql
 * with the browser session's cookie, or the tab's token (see session.js) as a bearer header; a
 * header typed into GraphiQL's headers editor wins. Headers are not persisted. Signing in or out mounts GraphiQL again, so it
 * fetches the schema with the new credential (introspection needs a signed-in caller).
 */
(function () {
  var session = window.labdeskSession;
  var $ = function (id) { return document.getElementById(id); };
  var signinForm = $('signin-form');
  var tokenInput = $('token');
  var sessionBox = $('session');
  var message = $('message');
  var root = window.ReactDOM.createRoot($('graphiql'));
  var mounts = 0;

  var DEFAULT_QUERY = [
    '# Sign in above, then run with ▶ or Ctrl-Enter.',
    '# Docs (book icon) browses the schema.',
    '',
    'query Me {',
    '  me {',
    '    id',
    '    email',
    '    name',
    '    isAdmin',
    '  }',
    '}',
    '',
  ].join('\n');

  function say(text, kind) {
    message.textContent = text;
    message.className = 'message ' + (kind || '');
  }

  async function fetcher(params, options) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    var token = session.token();
    if (token) headers.authorization = 'Bearer ' + token;
    var given = (options && options.headers) || {};
    Object.keys(given).forEach(function (name) {
      if (name.toLowerCase() === 'authorization') delete headers.authorization;
      headers[name] = given[name];
    });
    var response = await fetch('/graphql', { method: 'POST', headers: headers, body: JSON.stringify(params), credentials: 'same-origin' });
    var text = await response.text();
    try {
      return JSON.parse(text);
    } catch (error) {
      return { errors: [{ message: 'HTTP ' + response.status + ': ' + text.slice(0, 200) }] };
    }
  }

  function mount() {
    mounts += 1;
    root.render(
      window.React.createElement(window.GraphiQL, {
        key: mounts,
        fetcher: fetcher,
        defaultQuery: DEFAULT_QUERY,
        shouldPersistHeaders: false,
        isHeadersEditorEnabled: true,
      }),
    );
  }

  function showSignedIn(user) {
    $('who-name').textContent = user.name || user.email;
    $('who-email').textContent = user.name ? '<' + user.email + '>' : '';
    sessionBox.hidden = false;
    signinForm.hidden = true;
  }

  function showSignedOut() {
    sessionBox.hidden = true;
    signinForm.hidden = false;
    tokenInput.value = '';
  }

  signinForm.addEventListener('submit', async function (event) {
    event.preventDefault();
    var token = session.clean(tokenInput.value);
    if (!token) return;
    var who = await session.whoAmI(token);
    if (who.status !== 200) {
      say('That token was not accepted: ' + who.detail + '.', 'error');
      return;
    }
    session.keep(token);
    showSignedIn(who.user);
    say('');
    mount();
  });

  $('signout').addEventListener('click', async function () {
    await session.signOut();
    showSignedOut();
    say('Signed out. Queries now run anonymously; the schema needs a signed-in caller.');
    mount();
  });

  (async function start() {
    var who = await session.whoAmI();
    if (who.status === 200) {
      showSignedIn(who.user);
    } else if (session.token()) {
      session.forget();
      showSignedOut();
      say('Your session has ended (' + who.detail + '). Sign in again.', 'error');
    } else {
      showSignedOut();
      say('Sign in (the sign-in page, or a token here) to load the schema: introspection needs a signed-in caller.');
    }
    mount();
  })();
})();
