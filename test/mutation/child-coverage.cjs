// Mutation testing only (docs/testing.md, "Mutation testing"): lets the processes a test file
// starts (`airorder serve`, the CLI, cluster workers) tell Stryker which mutants they ran.
//
// Stryker's TAP runner learns a test file's coverage from the file's own process only, so a mutant
// reached only in a child would count as reached by no test. This hook is loaded first in the test
// file's process (stryker.config.mjs, tap.nodeArgs) and, through NODE_OPTIONS, in every node process
// started beneath it (and in their worker threads, which inherit the preload). In Stryker's dry run each child writes the mutants it ran to a file when it
// exits; the test file's process adds them to its own before Stryker's hook reports them (exit
// listeners run in the order they were added). Outside a dry run it does nothing: the mutant under
// test reaches children by the environment variable Stryker sets.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { threadId, parentPort } = require('node:worker_threads');

// Chosen by the test file's process and handed down: a test may give a child a TMPDIR of its own
// (an upload folder it reads), and the child must still write where the test file's process looks.
const DIR_VARIABLE = 'AIRORDER_MUTATION_COVERAGE_DIR';
const DIR = process.env[DIR_VARIABLE] ?? path.join(os.tmpdir(), 'airorder-mutation-coverage');
const ROOT = 'AIRORDER_MUTATION_ROOT_PID';
const namespace = process.env.STRYKER_NAMESPACE ?? '__stryker__';

function mutantCoverage() {
  const ns = globalThis[namespace];
  return ns && ns.mutantCoverage;
}

function add(into, counts) {
  for (const [id, count] of Object.entries(counts ?? {})) into[id] = (into[id] ?? 0) + count;
}

if (process.env.STRYKER_DRY_RUN === 'true') {
  const root = process.env[ROOT];
  if (root === undefined) {
    // The test file's process: its children inherit the hook and know whom to report to.
    process.env[ROOT] = String(process.pid);
    process.env[DIR_VARIABLE] = DIR;
    // Read by test/helpers/mutation-hook.ts where a test clears NODE_OPTIONS for its child.
    process.env.AIRORDER_MUTATION_HOOK = __filename;
    process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(__filename)}`.trim();
    process.on('exit', () => {
      let names;
      try {
        names = fs.readdirSync(DIR).filter((name) => name.startsWith(`${process.pid}-`));
      } catch {
        return; // no child wrote anything
      }
      const ns = (globalThis[namespace] ??= {});
      const coverage = (ns.mutantCoverage ??= { static: {}, perTest: {} });
      for (const name of names) {
        const file = path.join(DIR, name);
        try {
          const child = JSON.parse(fs.readFileSync(file, 'utf8'));
          add(coverage.static, child.static);
          for (const counts of Object.values(child.perTest ?? {})) add(coverage.static, counts);
        } catch {
          // a child cut off while writing: its coverage is lost, as if it had been killed
        }
        fs.rmSync(file, { force: true });
      }
    });
  } else {
    const report = () => {
      const coverage = mutantCoverage();
      if (!coverage) return; // not the instrumented program (a tool the test ran)
      fs.mkdirSync(DIR, { recursive: true });
      const file = path.join(DIR, `${root}-${process.pid}-${threadId}.json`);
      fs.writeFileSync(`${file}.part`, JSON.stringify(coverage));
      fs.renameSync(`${file}.part`, file);
    };
    // The report is kept the last 'exit' listener, so that the mutants the program's own exit
    // listeners reach (a log's last flush) count too: each time the program adds one, it moves back
    // to the end once the code adding it has run.
    let moving = false;
    const moveLast = () => {
      moving = true;
      process.removeListener('exit', report);
      process.on('exit', report);
      moving = false;
    };
    process.on('newListener', (event) => {
      if (event === 'exit' && !moving) process.nextTick(moveLast);
    });
    process.on('exit', report);
    // A worker thread that its parent ends with worker.terminate() (the import's preparing thread,
    // once it has answered) runs no 'exit' listener: it reports before each message it sends, so
    // that everything it ran before its last answer counts.
    if (threadId !== 0 && parentPort) {
      const post = parentPort.postMessage;
      parentPort.postMessage = function postAfterReport(...args) {
        report();
        return post.apply(this, args);
      };
    }
  }
}
