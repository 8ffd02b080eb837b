#!/usr/bin/env node
// heapsnapshot-memlab.js — memlab's retained sizes of a .heapsnapshot against a dump of
// tools/heapsnapshot-check.py (--dump-retained), node by node
//
// Not part of the build or the tests (they never need node). memlab (npm install
// @memlab/core@2.0.5 --ignore-scripts into some folder, outside the repository) applies
// DevTools' rule that objects reachable from the page keep their dominators inside the page
// only when it finds a Window object: on a Node.js snapshot it follows every non-weak edge.
// Its figures then equal heapsnapshot-check.py --no-page-rule's, while brightlens-cli's
// equal heapsnapshot-check.py's (DevTools' rules, the page found by the root's shortcut
// edges to the global objects).
//
// Usage: node tools/heapsnapshot-memlab.js --memlab DIR/node_modules/@memlab/core FILE DUMP.json
//
// SPDX-License-Identifier: GPL-3.0-or-later

'use strict';
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const at = args.indexOf('--memlab');
if (at < 0 || args.length !== 4) {
  console.error('usage: heapsnapshot-memlab.js --memlab DIR/node_modules/@memlab/core FILE DUMP.json');
  process.exit(2);
}
const memlab = path.resolve(args[at + 1]);
const [file, dump] = args.filter((_, i) => i !== at && i !== at + 1);
const {utils} = require(memlab);
const TraceFinder = require(path.join(memlab, 'dist/paths/TraceFinder.js')).default;

(async () => {
  const snapshot = await utils.getSnapshotFromFile(file, {buildNodeIdIndex: true});
  const finder = new TraceFinder();
  finder.annotateShortestPaths(snapshot);
  finder.calculateAllNodesRetainedSizes(snapshot);

  const expected = JSON.parse(fs.readFileSync(dump, 'utf8'));
  let same = 0;
  const different = [];
  snapshot.nodes.forEach(node => {
    if (expected[node.id] === node.retainedSize)
      same++;
    else
      different.push([node.id, node.name, node.retainedSize, expected[node.id]]);
  });
  console.log(`\n${same} nodes with the same retained size, ${different.length} different`);
  for (const [id, name, theirs, ours] of different.slice(0, 10))
    console.log(`  @${id} ${name}: memlab ${theirs}, dump ${ours}`);
  process.exit(different.length ? 1 : 0);
})();
