/* global window, document, MessageEvent */
// Stands in for VS Code around the panel: a fake acquireVsCodeApi that records what the panel
// posts, a way for the test to deliver host messages, and watchers for anything that must
// never happen (CSP violations, uncaught errors).
(function () {
  'use strict';
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
