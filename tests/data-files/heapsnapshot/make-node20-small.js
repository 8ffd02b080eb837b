// make-node20-small.js — writes node20-small.heapsnapshot with Node.js's own
// v8.writeHeapSnapshot(): some Leaky objects kept by a global array, a
// WeakMap whose value is only weakly held through its key, a cycle, a closure.
//
//   node make-node20-small.js && gzip -9n node20-small.heapsnapshot
//
// SPDX-License-Identifier: GPL-3.0-or-later
'use strict';
const v8 = require('v8');

class Leaky {
  constructor(n) {
    this.items = Array.from({length: n}, (_, i) => ({i, s: 'item ' + i}));
  }
}

class Ring {
  constructor() {
    this.next = this;
  }
}

const keep = [];
for (let i = 0; i < 20; i++)
  keep.push(new Leaky(50));
const key = {};
const wm = new WeakMap();
wm.set(key, new Leaky(10));
const ring = new Ring();
ring.next = new Ring();
ring.next.next = ring;
globalThis.keep = keep;
globalThis.key = key;
globalThis.wm = wm;
globalThis.ring = ring;
globalThis.counter = (() => {
  let n = 0;
  return () => ++n;
})();
v8.writeHeapSnapshot('node20-small.heapsnapshot');
