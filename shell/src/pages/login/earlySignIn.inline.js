/* The sign-in form before any script of 云文档 has arrived. index.html runs this inline, right
   after <template id="yw-sign-in">: a signed-out visitor of / or /login gets that form at the first
   paint instead of the loading screen. What is typed stays in it, and a press of 登录 (or 钉钉登录)
   waits, the button busy, until the sign-in page's script takes the form over (earlyForm.ts).
   It reads the storage as @app/shared does (storage.ts: JSON { value, expire }; StorageKey) and
   decides as bootstrap.tsx does (startsWithSignIn); earlySignIn.test.tsx holds them together.
   The server allows it by its hash (Content-Security-Policy, server/src/modules/web). */
(function () {
  try {
    var path = location.pathname;
    if (path !== '/login' && path !== '/') return;
    // an older link to the authorization page, or DingTalk's code coming back: not the plain form
    if (location.hash.indexOf('#/authorization') === 0) return;
    if (/[?&](authCode|code)=/.test(location.search)) return;
    var store = window.localStorage;
    var read = function (key) {
      var raw = store.getItem(key);
      if (!raw) return null;
      var item = JSON.parse(raw);
      if (!item || typeof item !== 'object' || !('value' in item)) return null;
      return item.expire != null && item.expire < Date.now() ? null : item.value;
    };
    // a session, or a temporary sign-in handed over by another page: start-up goes on to the app
    if (read('TOKEN__') || store.getItem('temporarily-token')) return;
    var root = document.getElementById('root');
    var template = document.getElementById('yw-sign-in');
    if (!root || !template) return;
    var config = read('CLIENT_ENVIRONMENT_CONFIG') || {};
    var name = typeof config.appTitle === 'string' && config.appTitle ? config.appTitle : '云文档';
    var page = template.content.cloneNode(true);
    var one = function (selector) {
      return page.querySelector(selector);
    };
    one('.yw-brand__logo').textContent = name.slice(0, 1);
    one('.yw-brand__name').textContent = name;
    one('.yw-footer').textContent = '© ' + new Date().getFullYear() + ' ' + name;
    var dingtalk = one('.yw-button--dingtalk');
    if (!config.dingtalk) dingtalk.parentNode.removeChild(dingtalk);
    var form = one('form');
    var submit = one('button[type="submit"]');
    var state = { pending: null, taken: false };
    window.__ywEarlySignIn = state;
    var press = function (what) {
      if (state.taken || state.pending) return;
      state.pending = what;
      dingtalk.disabled = true;
      if (what !== 'submit') return;
      // as LoginPage shows a sign-in under way
      var fields = form.querySelectorAll('input');
      for (var i = 0; i < fields.length; i++) fields[i].disabled = true;
      submit.disabled = true;
      submit.setAttribute('aria-busy', 'true');
      submit.innerHTML = '<span class="yw-spinner" aria-hidden="true"></span>登录中…';
    };
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      press('submit');
    });
    dingtalk.addEventListener('click', function () {
      press('dingtalk');
    });
    document.title = name;
    root.replaceChildren(page);
  } catch (e) {
    /* the loading screen stays; the sign-in page comes with its script */
  }
})();
