#!/usr/bin/env node
// speedscope-peer.js — speedscope's own importer side by side with brightlens-cli
//
// Not part of the build or the tests (they never need node). It loads the
// importer from an installed speedscope release (npm install speedscope@1.25.0
// into some folder, outside the repository) and, for each file given:
//   - times speedscope's import (read, JSON.parse, importSpeedscopeProfiles) in
//     wall and CPU seconds, and `brightlens-cli info` on the same file;
//   - with --export-to DIR, has speedscope import each file (any format it
//     reads) and writes what its exporter makes of it to DIR/NAME.speedscope.json;
//   - with --compare, builds speedscope's grouped call tree per profile, and
//     compares its stacks by frame name with brightlens-cli's folded output for
//     every metric (times in nanoseconds, to 1e-9 relative); with --round-trip,
//     also compares each file with what `brightlens-cli export --format
//     speedscope` makes of it, read by speedscope.
//
// Usage: node tools/speedscope-peer.js [--compare] [--round-trip] [--time]
//          --speedscope DIR/node_modules/speedscope --cli _build/src/cli/brightlens-cli FILE…
//
// SPDX-License-Identifier: GPL-3.0-or-later

'use strict';
const fs = require('fs');
const vm = require('vm');
const path = require('path');
const os = require('os');
const {execFileSync, spawnSync} = require('child_process');

const args = process.argv.slice(2);
const opt = {compare: false, roundTrip: false, time: false, exportTo: null, speedscope: null, cli: null,
             files: []};
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--compare') opt.compare = true;
  else if (args[i] === '--round-trip') opt.roundTrip = true;
  else if (args[i] === '--time') opt.time = true;
  else if (args[i] === '--speedscope') opt.speedscope = args[++i];
  else if (args[i] === '--export-to') opt.exportTo = args[++i];
  else if (args[i] === '--cli') opt.cli = args[++i];
  else opt.files.push(args[i]);
}
if (!opt.speedscope || !opt.cli || opt.files.length === 0) {
  console.error('usage: speedscope-peer.js [--compare] [--round-trip] [--time] ' +
                '--speedscope PKG_DIR --cli BRIGHTLENS_CLI FILE…');
  process.exit(2);
}

// The release bundle is one browser script; its importSpeedscopeProfiles is
// the function that builds {name, indexToView, profiles} from the parsed
// file. Run the bundle in a sandbox with just enough of a browser, and hand
// that function out.
function loadImporter(pkg) {
  const dir = path.join(pkg, 'dist', 'release');
  const js = fs.readdirSync(dir).find(f => /^speedscope-.*\.js$/.test(f));
  let src = fs.readFileSync(path.join(dir, js), 'utf8');
  const m = /function (\w+)\(t\)\{return\{name:t\.name\|\|t\.profiles\[0\]\.name\|\|"profile",indexToView:t\.activeProfileIndex\|\|0,profiles:t\.profiles\.map/.exec(src);
  if (!m) throw new Error('importSpeedscopeProfiles not found in ' + js);
  src = src.replace(`function ${m[1]}(t){`, `globalThis.__importSpeedscopeProfiles=function(t){return ${m[1]}(t)};function ${m[1]}(t){`);
  // its exporter (exportProfileGroup) and its import of any format from text
  const ex = /function (\w+)\(t\)\{let e=\[\],n=new Map;function a\(A\)\{let o=n\.get\(A\)/.exec(src);
  const im = /async function (\w+)\(t,e\)\{return\(await \w+\)\.importProfileGroupFromText\(t,e\)\}/.exec(src);
  if (ex) src = src.replace(`function ${ex[1]}(t){let e=[]`, `globalThis.__exportProfileGroup=function(t){return ${ex[1]}(t)};function ${ex[1]}(t){let e=[]`);
  if (im) src = src.replace(`async function ${im[1]}(t,e){`, `globalThis.__importFromText=function(t,e){return ${im[1]}(t,e)};async function ${im[1]}(t,e){`);
  const noop = () => {};
  const any = () => new Proxy(function () {}, {
    get: (t, k) => (k === Symbol.toPrimitive ? () => '' : any()), apply: () => any(), construct: () => any()});
  const ctx = {console: {log: noop, warn: noop, error: noop, info: noop}, setTimeout, clearTimeout,
    TextDecoder, TextEncoder, URL, Blob: function () {}, window: any(), document: any(),
    navigator: {userAgent: 'node'}, location: {hash: '', search: '', href: ''},
    localStorage: {getItem: () => null, setItem: noop}, requestAnimationFrame: noop,
    addEventListener: noop, performance,
    matchMedia: () => ({matches: false, addEventListener: noop, addListener: noop})};
  ctx.globalThis = ctx;
  ctx.self = ctx;
  vm.createContext(ctx);
  try { vm.runInContext(src, ctx); } catch (e) { if (!ctx.__importSpeedscopeProfiles) throw e; }
  return ctx;
}

const peer = loadImporter(opt.speedscope);
const importSpeedscopeProfiles = peer.__importSpeedscopeProfiles;
const toNs = {nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9};

// Other formats speedscope reads (Chrome .cpuprofile and .heapprofile):
// through its import of any file, as when the file is opened in it.
function isSpeedscopeFile(text) {
  return /^\s*\{\s*"\$schema"\s*:\s*"https:\/\/www\.speedscope\.app\/file-format-schema\.json"/.test(text.slice(0, 256));
}

async function importAny(file, text) {
  if (isSpeedscopeFile(text)) return importSpeedscopeProfiles(JSON.parse(text));
  const group = await peer.__importFromText(path.basename(file), text);
  if (!group) throw new Error('speedscope does not read it');
  return group;
}

// speedscope's stacks: per profile, frame names joined by ';' under the
// profile's name (as Brightlens names its thread), self weights summed.
async function speedscopeStacks(file) {
  const text = fs.readFileSync(file, 'utf8');
  const doc = isSpeedscopeFile(text) ? JSON.parse(text) : {profiles: []};
  const group = await importAny(file, text);
  const used = new Map();   // name → metrics of our own exports under it, or null
  const out = [];
  group.profiles.forEach((p, i) => {
    const own = doc.profiles[i] && doc.profiles[i].brightlensMetric;
    // unnamed: the file name, as speedscope names it when it opens a file
    let base = p.getName() || path.basename(file);
    let name = base;
    // as Brightlens reads them: our own exports' profiles of one thread (one per
    // metric) come together; others get distinct names
    for (let k = 2; used.has(name); k++) {
      const metrics = used.get(name);
      if (own && metrics && !metrics.has(own)) break;
      name = `${base} (${k})`;
    }
    if (own) used.set(name, (used.get(name) || new Set()).add(own));
    else used.set(name, null);
    const unit = p.getWeightUnit();
    // our own exports' values are in their metric's unit already (cpu: µs)
    const factor = own ? 1 : toNs[unit] || 1;
    const metric = own ||
      (toNs[unit] ? 'time-ns' : unit === 'bytes' ? 'alloc-bytes' : 'weight');
    const stacks = new Map();
    const walk = (node, prefix) => {
      for (const c of node.children) {
        const s = prefix + ';' + c.frame.name;
        if (c.getSelfWeight() !== 0) stacks.set(s, (stacks.get(s) || 0) + c.getSelfWeight() * factor);
        walk(c, s);
      }
    };
    walk(p.getGroupedCalltreeRoot(), name);
    out.push({name, unit, metric, total: p.getTotalNonIdleWeight() * factor, stacks});
  });
  return out;
}

function brightlensStacks(file) {
  const info = JSON.parse(execFileSync(opt.cli, ['info', '--json', file], {stdio: ['ignore', 'pipe', 'ignore']}));
  const byMetric = new Map();
  for (const metric of Object.keys(info.totals || {})) {
    const text = execFileSync(opt.cli, ['export', file, '--format', 'folded', '--metric', metric],
                              {stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30}).toString();
    const stacks = new Map();
    for (const line of text.split('\n')) {
      if (!line) continue;
      const sp = line.lastIndexOf(' ');
      stacks.set(line.slice(0, sp), Number(line.slice(sp + 1)));
    }
    byMetric.set(metric, stacks);
  }
  return byMetric;
}

const close = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

// Compares speedscope's stacks with Brightlens's; the metric 'samples' of
// Brightlens (unit none, every weight 1) is speedscope's 'weight'.
// A Chrome profile (onlyTheirs): speedscope names its one profile after the
// file, Brightlens its one thread "Main"; the stacks are compared below that.
// A Chrome trace's several profiles are compared per thread.
function compare(label, ss, bl, onlyTheirs) {
  let problems = 0;
  const all = new Map();
  const theirs = new Set(ss.map(p => p.metric));
  const below = s => s.slice(s.indexOf(';'));
  // Several profiles (a Chrome trace's threads): speedscope names them
  // "FILE - THREAD", Brightlens's threads are THREAD; compared thread by thread.
  const several = onlyTheirs && ss.length > 1;
  const threadOf = n => n.indexOf(' - ') >= 0 ? n.slice(n.indexOf(' - ') + 3) : n;
  if (onlyTheirs)
    ss = ss.map(p => ({...p, stacks: new Map([...p.stacks].map(([s, v]) =>
      [(several ? threadOf(p.name) : '') + below(s), v]))}));
  for (const [metric, stacks] of bl)
    if (!onlyTheirs || theirs.has(metric))
      for (const [s, v] of stacks) all.set(metric + ' ' + (onlyTheirs && !several ? below(s) : s), v);
  const seen = new Set();
  for (const p of ss) {
    let metric = p.metric;
    if (metric === 'weight' && !bl.has('weight') && bl.has('samples')) metric = 'samples';
    if (metric === 'weight' && bl.has('samples') && [...bl.get('samples').keys()].some(k => k.startsWith(p.name + ';')))
      metric = 'samples';
    for (const [s, v] of p.stacks) {
      const key = metric + ' ' + s;
      seen.add(key);
      if (!all.has(key)) { problems++; if (problems < 5) console.log(`  ${label}: ${key} ${v}: missing in Brightlens`); }
      else if (!close(all.get(key), v)) { problems++; if (problems < 5) console.log(`  ${label}: ${key}: speedscope ${v}, Brightlens ${all.get(key)}`); }
    }
  }
  for (const key of all.keys())
    if (!seen.has(key)) { problems++; if (problems < 5) console.log(`  ${label}: ${key}: only in Brightlens`); }
  return problems;
}

async function exportAll() {
  for (const file of opt.files) {
    const group = await peer.__importFromText(path.basename(file), fs.readFileSync(file, 'utf8'));
    if (!group) { console.log(`${file}: speedscope does not read it`); continue; }
    const out = path.join(opt.exportTo, path.basename(file).replace(/\.[^.]*$/, '') + '.speedscope.json');
    fs.writeFileSync(out, JSON.stringify(peer.__exportProfileGroup(group)));
    console.log(`${out}: ${group.profiles.length} profiles`);
  }
}
if (opt.exportTo) {
  exportAll().then(() => process.exit(0), e => { console.error(e); process.exit(1); });
  return;
}

async function main() {
let failed = 0;
for (const file of opt.files) {
  if (opt.time) {
    const u0 = process.cpuUsage(), t0 = performance.now();
    const group = await importAny(file, fs.readFileSync(file, 'utf8'));
    const t1 = performance.now(), u1 = process.cpuUsage(u0);
    const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', opt.cli, 'info', file], {encoding: 'utf8'});
    const [wall, user, sys, rss] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
    console.log(`${path.basename(file)}: speedscope ${((t1 - t0) / 1000).toFixed(2)} s wall, ` +
                `${((u1.user + u1.system) / 1e6).toFixed(2)} s CPU (${group.profiles.length} profiles); ` +
                `brightlens-cli info ${wall.toFixed(2)} s wall, ${(user + sys).toFixed(2)} s CPU, ` +
                `${(rss / 1024).toFixed(0)} MB; ratio wall ${((t1 - t0) / 1000 / wall).toFixed(1)}×, ` +
                `CPU ${((u1.user + u1.system) / 1e6 / (user + sys)).toFixed(1)}×`);
  }
  if (opt.compare || opt.roundTrip) {
    let ss;
    // (a Chrome profile has one metric in speedscope: Brightlens's others are extra)
    const onlyTheirs = !isSpeedscopeFile(fs.readFileSync(file, 'utf8').slice(0, 256));
    try { ss = await speedscopeStacks(file); } catch (e) { console.log(`${file}: speedscope refuses it: ${e.message}`); continue; }
    let bl;
    try { bl = brightlensStacks(file); } catch (e) { console.log(`${file}: Brightlens refuses it`); failed++; continue; }
    let problems = opt.compare ? compare('read', ss, bl, onlyTheirs) : 0;
    if (opt.roundTrip) {
      const out = path.join(os.tmpdir(), `bl-round-trip-${process.pid}.speedscope.json`);
      execFileSync(opt.cli, ['export', file, '--format', 'speedscope', '-o', out], {stdio: 'ignore'});
      try {
        problems += compare('round trip, speedscope', await speedscopeStacks(out), bl);
        problems += compare('round trip, Brightlens', ss, brightlensStacks(out));
      } finally { fs.unlinkSync(out); }
    }
    console.log(`${path.basename(file)}: ${problems === 0 ? `same stacks (${ss.reduce((n, p) => n + p.stacks.size, 0)})` : problems + " differences"}`);
    if (problems) failed++;
  }
}
process.exit(failed ? 1 : 0);
}
main().catch(e => { console.error(e); process.exit(1); });
