/* global window, document, location, MessageEvent, MutationObserver */
// Installed as an init script before the panel loads: stands in for VS Code around the panel.
// A fake acquireVsCodeApi records what the panel posts, `deliver` plays host messages, and
// watchers record anything that must never happen (CSP violations, uncaught errors). Like VS
// Code, it puts the theme's class on <body>.
(function () {
  'use strict';
  var THEME_CLASS = {
    dark: 'vscode-dark',
    light: 'vscode-light',
    hc: 'vscode-high-contrast',
    hcLight: 'vscode-high-contrast-light',
  };
  var state;
  var acquired = false;
  var harness = {
    posted: [],
    cspViolations: [],
    errors: [],
    getState: function () {
      return state;
    },
    deliver: function (messages) {
      for (var i = 0; i < messages.length; i++) {
        window.dispatchEvent(new MessageEvent('message', { data: messages[i] }));
      }
    },
  };
  window.__harness = harness;
  document.addEventListener('securitypolicyviolation', function (e) {
    harness.cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
  window.addEventListener('error', function (e) {
    harness.errors.push(String(e.message));
  });
  var theme = new URL(location.href).searchParams.get('theme') || 'dark';
  new MutationObserver(function (_, observer) {
    if (document.body) {
      document.body.classList.add(THEME_CLASS[theme] || 'vscode-dark');
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
  window.acquireVsCodeApi = function () {
    if (acquired) throw new Error('acquireVsCodeApi may be called only once');
    acquired = true;
    return {
      postMessage: function (m) {
        harness.posted.push(JSON.parse(JSON.stringify(m)));
      },
      getState: function () {
        return state;
      },
      setState: function (s) {
        state = JSON.parse(JSON.stringify(s));
      },
    };
  };
})();
