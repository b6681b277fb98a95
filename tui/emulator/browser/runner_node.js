// Runs one piece of user JavaScript against a session's browser (a separate process).
//
// Started by tui/emulator/browser/execute.py as `node --expose-internals runner_node.js`
// with WDS_CDP_ENDPOINT (the browser's DevTools websocket), WDS_CODE_FILE (the code),
// WDS_RESULT_FD (the fd the outcome goes to as one JSON line: result, error) and
// WDS_PLAYWRIGHT_CORE (the playwright-core package directory). As a spare
// (WDS_RUNNER_SPARE=1, see spares.py) it loads playwright-core first, then reads the
// other variables and its working directory as one JSON line from stdin.
//
// The code sees a ready Playwright `page` (plus `context`, `browser`, `playwright`,
// `require`) and may use top-level await; the value of its last expression is `result`.
// Top-level await is handled exactly as Node's own REPL does it: its internal
// `processTopLevelAwait` rewrites the code into an async function that returns the
// last expression's value (that is why the runner needs --expose-internals). Code
// without await runs as a plain script, whose completion value is the result.
'use strict';

const fs = require('fs');
const util = require('util');
const vm = require('vm');

function loadTopLevelAwait() {
  try {
    return require('internal/repl/await').processTopLevelAwait;
  } catch (err) {
    return null; // a Node.js without the REPL helper: fall back to a plain async wrapper
  }
}

function describe(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return json;
  } catch (err) {
    // circular or exotic values: inspect below
  }
  return util.inspect(value, { depth: 4 });
}

function userStack(err) {
  if (!(err && err.stack)) return String(err);
  // Drop the runner's own frames: the user only wrote code.js.
  const own = /runner_node\.js|\(node:vm:|at node:internal/;
  return err.stack.split('\n').filter((line) => !own.test(line)).join('\n');
}

function errorMessage(err) {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}

async function evaluate(source) {
  const processTopLevelAwait = loadTopLevelAwait();
  const options = { filename: 'code.js', displayErrors: true };
  let wrapped = processTopLevelAwait ? processTopLevelAwait(source) : null;
  if (wrapped !== null) {
    const outcome = await vm.runInThisContext(wrapped, options);
    return outcome ? outcome.value : undefined;
  }
  if (processTopLevelAwait === null && /\bawait\b/.test(source)) {
    // No REPL helper: await works, the last-expression value is not available.
    return vm.runInThisContext(`(async () => {\n${source}\n})()`, options);
  }
  return vm.runInThisContext(source, options); // completion value of the script
}

function receiveJob() {
  return new Promise((resolve) => {
    let data = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => { data += chunk; });
    process.stdin.on('end', () => resolve(data.trim() ? JSON.parse(data) : null));
  });
}

async function main() {
  const playwright = require(process.env.WDS_PLAYWRIGHT_CORE); // the slow part: done before the job
  if (process.env.WDS_RUNNER_SPARE === '1') {
    const job = await receiveJob();
    if (job === null) process.exit(0); // stood down
    process.chdir(job.cwd);
    Object.assign(process.env, job.env);
  }
  const source = fs.readFileSync(process.env.WDS_CODE_FILE, 'utf8');
  const browser = await playwright.chromium.connectOverCDP(process.env.WDS_CDP_ENDPOINT);
  const context = browser.contexts()[0] || (await browser.newContext());
  const page = context.pages()[0] || (await context.newPage());
  Object.assign(globalThis, { playwright, browser, context, page, require });
  let value = await evaluate(source);
  if (value && typeof value.then === 'function') value = await value; // `page.title()` without await
  return describe(value);
}

function finish(outcome, status) {
  if (process.env.WDS_RESULT_FD) fs.writeSync(Number(process.env.WDS_RESULT_FD), `${JSON.stringify(outcome)}\n`);
  // Exit explicitly: the CDP connection (and any timer the code left) would keep node alive.
  // Flushing stdout first matters when it is a pipe.
  process.stdout.write('', () => process.exit(status));
}

main().then(
  (result) => finish({ result, error: null }, 0),
  (err) => {
    process.stderr.write(`${userStack(err)}\n`);
    finish({ result: null, error: errorMessage(err) }, 1);
  },
);
