'use strict';
/**
 * The signed-in state the labdesk pages share: a bearer token kept in this tab's sessionStorage
 * (gone when the tab closes, never in a cookie), sent as an Authorization header from script
 * and only to this server.
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
        credentials: 'omit',
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

  return { token: token, clean: clean, keep: keep, forget: forget, api: api, detailOf: detailOf, whoAmI: whoAmI };
})();
