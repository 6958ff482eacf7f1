'use strict';
/**
 * The device-approval page: signed in with the browser session (the sign-in page) or a pasted
 * token, check the code the CLI shows, approve or deny it. A request the cookie authenticates is
 * accepted only from this service's own pages (the server checks its Origin), and the server
 * forbids framing the page.
 */
(function () {
  var session = window.labdeskSession;
  var $ = function (id) { return document.getElementById(id); };
  var signinSection = $('signin');
  var signinForm = $('signin-form');
  var tokenInput = $('token');
  var sessionSection = $('session');
  var codeForm = $('code-form');
  var codeInput = $('code');
  var approveButton = $('approve');
  var denyButton = $('deny');
  var message = $('message');
  var busy = false;
  var signedIn = false;
  /** The code just approved or denied: a login is decided once, so its buttons stay off. */
  var decided = '';

  function say(text, kind) {
    message.textContent = text;
    message.className = 'message ' + (kind || '');
  }

  /** `abcdefgh`, `abcd efgh` and `ABCD-EFGH` all read as ABCD-EFGH. */
  function normalizeCode(text) {
    var plain = String(text || '').toUpperCase().replace(/[^A-Z0-9]/g, '');
    return plain.length > 4 ? plain.slice(0, 4) + '-' + plain.slice(4) : plain;
  }

  function updateButtons() {
    var code = normalizeCode(codeInput.value);
    var ready = signedIn && !busy && code.length > 0 && code !== decided;
    approveButton.disabled = !ready;
    denyButton.disabled = !ready;
  }

  function showSignedIn(user) {
    signedIn = true;
    $('who-name').textContent = user.name || user.email;
    $('who-email').textContent = user.name ? '<' + user.email + '>' : '';
    sessionSection.hidden = false;
    signinSection.hidden = true;
    updateButtons();
  }

  function showSignedOut() {
    signedIn = false;
    sessionSection.hidden = true;
    signinSection.hidden = false;
    tokenInput.value = '';
    updateButtons();
  }

  async function restoreSession() {
    var who = await session.whoAmI();
    if (who.status === 401 && !session.token()) {
      showSignedOut();
      say('Sign in to approve or deny the login.', 'info');
      return;
    }
    if (who.status === 200) {
      showSignedIn(who.user);
      say(codeInput.value ? 'Check that your terminal shows this code, then approve or deny.' : 'Enter the code your terminal shows.', 'info');
    } else if (who.status === 401) {
      session.forget();
      showSignedOut();
      say('Your session has ended (' + who.detail + '). Sign in again.', 'error');
    } else {
      showSignedOut();
      say('Could not check your session: ' + who.detail + '.', 'error');
    }
  }

  signinForm.addEventListener('submit', async function (event) {
    event.preventDefault();
    var token = session.clean(tokenInput.value);
    if (!token) return;
    say('Signing in…', 'info');
    var who = await session.whoAmI(token);
    if (who.status === 200) {
      session.keep(token);
      showSignedIn(who.user);
      say(codeInput.value ? 'Check that your terminal shows this code, then approve or deny.' : 'Enter the code your terminal shows.', 'info');
    } else if (who.status === 401) {
      say('That token was not accepted: ' + who.detail + '.', 'error');
      tokenInput.select();
    } else {
      say('Could not sign in: ' + who.detail + '.', 'error');
    }
  });

  $('signout').addEventListener('click', async function () {
    await session.signOut();
    showSignedOut();
    say('Signed out.', 'info');
  });

  codeInput.addEventListener('input', updateButtons);
  codeInput.addEventListener('blur', function () { codeInput.value = normalizeCode(codeInput.value); });

  async function decide(action) {
    var code = normalizeCode(codeInput.value);
    codeInput.value = code;
    busy = true;
    updateButtons();
    say(action === 'approve' ? 'Approving ' + code + '…' : 'Denying ' + code + '…', 'info');
    var reply = await session.api('POST', '/api/auth/cli/' + action, { user_code: code });
    busy = false;
    if (reply.status === 200) {
      say(
        action === 'approve'
          ? 'Approved ' + code + '. Go back to your terminal: labdesk login finishes within a few seconds.'
          : 'Denied ' + code + '. The CLI is told that the login was refused; nobody can approve this code any more.',
        'ok',
      );
      decided = code;
    } else if (reply.status === 404) {
      say('No login is waiting for ' + code + ': it was mistyped, has expired (codes live 10 minutes), or was already approved or denied. Run labdesk login again for a new code.', 'error');
    } else if (reply.status === 401) {
      session.forget();
      showSignedOut();
      say('Your session has ended (' + session.detailOf(reply.body) + '). Sign in again, then retry.', 'error');
    } else if (reply.status === 422) {
      say('That does not look like a code: enter it as the CLI shows it, e.g. ABCD-EFGH.', 'error');
    } else {
      say('Could not ' + action + ' the login: ' + session.detailOf(reply.body) + '.', 'error');
    }
    updateButtons();
  }

  codeForm.addEventListener('submit', function (event) {
    event.preventDefault();
    decide('approve');
  });
  denyButton.addEventListener('click', function () { decide('deny'); });

  var given = new URLSearchParams(window.location.search).get('code');
  if (given) codeInput.value = normalizeCode(given);
  restoreSession();
})();
