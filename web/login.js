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

  // Why a single sign-on came back here (/login?sso=<reason>): fixed words, never text from the URL.
  var SSO_REFUSALS = {
    state: 'Single sign-on did not finish in time, or was started in another browser. Try again.',
    denied: 'The sign-on provider did not let you in.',
    failed: 'Single sign-on failed. Try again, or sign in with your password.',
    unavailable: 'The sign-on provider cannot be reached just now. Try again later, or sign in with your password.',
    unverified_email: 'Your sign-on provider has not verified your email address, so it cannot be matched to an account.',
    no_account: 'No labdesk account has your email address. Ask an administrator to create one.',
    domain: 'New accounts are not open to your email domain. Ask an administrator.',
    suspended: 'This account is suspended.',
    linked_elsewhere: 'The account with your email address signs on as someone else. Ask an administrator.',
  };
  var refusal = new URLSearchParams(window.location.search).get('sso');
  if (refusal) say(Object.prototype.hasOwnProperty.call(SSO_REFUSALS, refusal) ? SSO_REFUSALS[refusal] : SSO_REFUSALS.failed, 'error');

  var ssoLink = $('sso-link');
  if (session.nextPath() !== '/') ssoLink.href = '/auth/oidc/login?next=' + encodeURIComponent(session.nextPath());

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
