// google.script.run for the workbench: the sidebar's calls go over HTTP to the Node runtime for
// Apps Script, which runs the built dist/Code.js. Injected before the sidebar's own script.
(function () {
  function runner(success, failure) {
    return new Proxy(
      {},
      {
        get: function (_target, name) {
          if (name === 'withSuccessHandler')
            return function (handler) {
              return runner(handler, failure);
            };
          if (name === 'withFailureHandler')
            return function (handler) {
              return runner(success, handler);
            };
          if (name === 'withUserObject')
            return function () {
              return runner(success, failure);
            };
          return function () {
            var args = Array.prototype.slice.call(arguments);
            fetch('/rpc/' + encodeURIComponent(String(name)), {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(args),
            })
              .then(function (response) {
                return response.json();
              })
              .then(function (reply) {
                // The grid beside the sidebar re-reads the spreadsheet after every server call.
                if (window.parent !== window) window.parent.postMessage({ type: 'workbench:changed' }, '*');
                if (reply.ok) {
                  if (success) success(reply.value);
                } else if (failure) failure(new Error(reply.error));
              })
              .catch(function (error) {
                if (failure) failure(error);
              });
          };
        },
      },
    );
  }
  window.google = { script: { run: runner(null, null), host: { close: function () {}, setHeight: function () {}, setWidth: function () {} } } };
})();
