'use strict';
/**
 * The signed-in state the labdesk pages share: the browser session (an HttpOnly cookie this
 * script never sees, set by the sign-in page), or a bearer token pasted into a page and kept in
 * this tab's sessionStorage (gone when the tab closes), which takes precedence. Requests go to
 * this server only.
 */
window.labdeskSession = (function () {
  var KEY = 'labdesk.token';

  function token() {
    try {
      return window.sessionStorage.getItem(KEY) || '';
    } catch (error) {
      return '';
    }
  }

  /** A token as pasted: surrounding blanks and a leading "Bearer " are dropped. */
  function clean(text) {
    return String(text || '').trim().replace(/^bearer\s+/i, '');
  }

  function keep(value) {
    window.sessionStorage.setItem(KEY, clean(value));
  }

  function forget() {
    window.sessionStorage.removeItem(KEY);
  }

  /** A JSON request to this server; resolves to {status, body} (status 0 when unreachable). */
  async function api(method, path, body, withToken) {
    var headers = { accept: 'application/json' };
    var bearer = withToken === undefined ? token() : clean(withToken);
    if (bearer) headers.authorization = 'Bearer ' + bearer;
    if (body !== undefined) headers['content-type'] = 'application/json';
    var response;
    try {
      response = await fetch(path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        cache: 'no-store',
      });
    } catch (error) {
      return { status: 0, body: { detail: 'the server could not be reached' } };
    }
    var parsed = {};
    try {
      parsed = await response.json();
    } catch (error) {
      parsed = {};
    }
    return { status: response.status, body: parsed };
  }

  /** The `detail` of an error answer, in words. */
  function detailOf(body) {
    var detail = body && body.detail;
    if (Array.isArray(detail)) return detail.map(function (issue) { return issue.msg; }).join('; ');
    return typeof detail === 'string' ? detail : 'unexpected answer from the server';
  }

  /** Who the token belongs to: {status, user?, detail?}. */
  async function whoAmI(withToken) {
    var reply = await api('GET', '/api/me', undefined, withToken);
    return reply.status === 200 ? { status: 200, user: reply.body } : { status: reply.status, detail: detailOf(reply.body) };
  }

  /** Signs out: forgets the tab's token, and ends the browser session (the server clears its cookie). */
  async function signOut() {
    forget();
    await api('POST', '/api/auth/logout', undefined, '');
  }

  /**
   * Where to go after signing in: the page's `labdesk-next`, which the server worked out from
   * `?next=` by the rule single sign-on uses too (a path of this site, else the start page).
   */
  function nextPath() {
    var meta = document.querySelector('meta[name="labdesk-next"]');
    return (meta && meta.getAttribute('content')) || '/';
  }

  return {
    token: token,
    clean: clean,
    keep: keep,
    forget: forget,
    api: api,
    detailOf: detailOf,
    whoAmI: whoAmI,
    signOut: signOut,
    nextPath: nextPath,
  };
})();
