#!/usr/bin/env python3
# heapsnapshot-check.py — an independent reading of a V8 .heapsnapshot, to
# check brightlens-cli's figures against
#
# Not part of the build or the tests. It parses the whole JSON with Python's
# json module (fine for small files), applies Chrome DevTools' rules for
# retained sizes (weak edges and shortcut edges off the root do not retain;
# edges from non-page objects into page objects are not followed; objects the
# root does not reach hang from the root), and computes dominators with the
# iterative Cooper–Harvey–Kennedy algorithm on a post-order — a different
# algorithm from the Lengauer–Tarjan one in src/model/bl-heap.c.
#
# Usage:
#   tools/heapsnapshot-check.py FILE[.gz] [--top N]          print the figures as JSON
#   tools/heapsnapshot-check.py FILE[.gz] --compare CLI      compare with `CLI heap FILE --json`
#   tools/heapsnapshot-check.py FILE[.gz] --dump-retained OUT [--no-page-rule]
#                                                            every node's retained size, for
#                                                            tools/heapsnapshot-memlab.js
#                                                            (every class, the 5000 largest objects)
#
# SPDX-License-Identifier: GPL-3.0-or-later

import argparse
import gzip
import json
import subprocess
import sys


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return json.load(f)


def analyse(snap, page_rule=True):
    meta = snap['snapshot']['meta']
    nf, ef = meta['node_fields'], meta['edge_fields']
    node_types, edge_types = meta['node_types'][0], meta['edge_types'][0]
    N, E = len(nf), len(ef)
    raw_nodes, raw_edges, strings = snap['nodes'], snap['edges'], snap['strings']
    n = len(raw_nodes) // N
    t_at, name_at, id_at, self_at, count_at = (nf.index(k) for k in
                                                ('type', 'name', 'id', 'self_size', 'edge_count'))
    et_at, en_at, to_at = (ef.index(k) for k in ('type', 'name_or_index', 'to_node'))
    weak, shortcut, element = (edge_types.index(k) for k in ('weak', 'shortcut', 'element'))

    types = [node_types[raw_nodes[i * N + t_at]] for i in range(n)]
    names = [strings[raw_nodes[i * N + name_at]] for i in range(n)]
    ids = [raw_nodes[i * N + id_at] for i in range(n)]
    sizes = [raw_nodes[i * N + self_at] for i in range(n)]

    def klass(i):
        t = types[i]
        if t in ('object', 'native'):
            return names[i]
        return {'hidden': '(system)', 'code': '(compiled code)'}.get(t, '(%s)' % t)

    # out-edges per node: (type, target)
    out = []
    at = 0
    for i in range(n):
        k = raw_nodes[i * N + count_at]
        out.append([(raw_edges[e * E + et_at], raw_edges[e * E + to_at] // N)
                    for e in range(at, at + k)])
        at += k
    assert at * E == len(raw_edges)

    # page objects: from the root's shortcut edges (and a "(Document DOM
    # trees)" element), over non-weak edges
    page = [False] * n
    todo = []
    for t, v in out[0]:
        if t == shortcut or (t == element and types[v] == 'synthetic'
                             and names[v] == '(Document DOM trees)'):
            if not page[v]:
                page[v] = True
                todo.append(v)
    while todo:
        u = todo.pop()
        for t, v in out[u]:
            if t != weak and not page[v]:
                page[v] = True
                todo.append(v)

    def follows(u, t, v):
        if t == weak or (t == shortcut and u != 0):
            return False
        return u == 0 or not page_rule or not page[v] or page[u]

    succ = [[v for t, v in out[u] if follows(u, t, v)] for u in range(n)]
    strong_in = [False] * n
    for u in range(n):
        for t, v in out[u]:
            if t != weak and t != shortcut:
                strong_in[v] = True

    # what the root does not reach becomes its child, as in DevTools
    def reach(start, seen):
        todo = [start]
        seen[start] = True
        while todo:
            u = todo.pop()
            for v in succ[u]:
                if not seen[v]:
                    seen[v] = True
                    todo.append(v)

    seen = [False] * n
    reach(0, seen)
    extra = []
    for i in range(n):
        if not seen[i] and not strong_in[i]:
            extra.append(i)
            reach(i, seen)
    extra += [i for i in range(n) if not seen[i]]
    succ[0] = succ[0] + extra

    # post-order by an iterative depth-first search
    order, index = [], [-1] * n
    visited = [False] * n
    stack = [(0, iter(succ[0]))]
    visited[0] = True
    while stack:
        u, it = stack[-1]
        for v in it:
            if not visited[v]:
                visited[v] = True
                stack.append((v, iter(succ[v])))
                break
        else:
            stack.pop()
            index[u] = len(order)
            order.append(u)
    preds = [[] for _ in range(n)]
    for u in range(n):
        for v in succ[u]:
            preds[v].append(u)

    # Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm"
    idom = [-1] * n
    idom[0] = 0
    changed = True
    while changed:
        changed = False
        for u in reversed(order[:-1]):
            new = -1
            for p in preds[u]:
                if idom[p] == -1:
                    continue
                if new == -1:
                    new = p
                    continue
                a, b = p, new
                while a != b:
                    while index[a] < index[b]:
                        a = idom[a]
                    while index[b] < index[a]:
                        b = idom[b]
                new = a
            if new != idom[u]:
                idom[u] = new
                changed = True

    retained = list(sizes)
    for u in order[:-1]:
        retained[idom[u]] += retained[u]

    # per class: objects not dominated by an object of the same class
    children = [[] for _ in range(n)]
    for u in order[:-1]:
        children[idom[u]].append(u)
    classes = {}
    for i in range(n):
        c = classes.setdefault(klass(i), [0, 0, 0])
        c[0] += 1
        c[1] += sizes[i]
    active = {}
    stack = [(0, False)]
    while stack:
        u, leaving = stack.pop()
        c = klass(u)
        if leaving:
            active[c] -= 1
            continue
        if active.get(c, 0) == 0:
            classes[c][2] += retained[u]
        active[c] = active.get(c, 0) + 1
        stack.append((u, True))
        for v in children[u]:
            stack.append((v, False))

    return {'objects': n, 'bytes': sum(sizes), 'ids': ids, 'retained': retained,
            'klass': [klass(i) for i in range(n)], 'classes': classes}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('file')
    parser.add_argument('--top', type=int, default=None,
                        help='objects to list (default 10), or to compare (default 5000)')
    parser.add_argument('--compare', metavar='CLI')
    parser.add_argument('--no-page-rule', action='store_true',
                        help="follow edges from non-page objects into page objects (as memlab "
                             "does on snapshots without a Window)")
    parser.add_argument('--dump-retained', metavar='OUT',
                        help='write {node id: retained size} of every node as JSON to OUT')
    args = parser.parse_args()

    mine = analyse(load(args.file), page_rule=not args.no_page_rule)
    if args.dump_retained:
        with open(args.dump_retained, 'w') as f:
            json.dump({str(i): r for i, r in zip(mine['ids'], mine['retained'])}, f)
    by_id = {i: k for k, i in enumerate(mine['ids'])}
    largest = sorted(range(mine['objects']), key=lambda i: -mine['retained'][i])[:args.top or 10]

    if not args.compare:
        print(json.dumps({
            'objects': mine['objects'], 'bytes': mine['bytes'],
            'types': sorted(({'name': k, 'count': v[0], 'self_bytes': v[1], 'retained_bytes': v[2]}
                             for k, v in mine['classes'].items()),
                            key=lambda r: (-r['retained_bytes'], -r['self_bytes'], r['name'])),
            'largest': [{'object': mine['ids'][i], 'type': mine['klass'][i],
                         'retained_bytes': mine['retained'][i]} for i in largest],
        }, indent=1))
        return 0

    # every class; the largest objects (the CLI's listing is quadratic in --top)
    theirs = json.loads(subprocess.run([args.compare, 'heap', args.file, '--json', '--top',
                                        str(args.top or 5000)], check=True, capture_output=True,
                                       text=True).stdout)['snapshots'][0]
    problems = 0
    if (theirs['objects'], theirs['bytes']) != (mine['objects'], mine['bytes']):
        print('objects/bytes differ: %s/%s vs %s/%s' % (theirs['objects'], theirs['bytes'],
                                                      mine['objects'], mine['bytes']))
        problems += 1
    types = {r['name']: r for r in theirs['types']}
    for name, (count, self_bytes, retained) in mine['classes'].items():
        r = types.get(name)
        if r is None or (r['count'], r['self_bytes'], r['retained_bytes']) != (count, self_bytes,
                                                                                retained):
            print('class %r differs: %s vs %s' % (name, r, (count, self_bytes, retained)))
            problems += 1
    for row in theirs['largest']:
        i = by_id[row['object']]
        if row['retained_bytes'] != mine['retained'][i] or row['type'] != mine['klass'][i]:
            print('object @%d differs: %s vs %s %d' % (row['object'], row, mine['klass'][i],
                                                     mine['retained'][i]))
            problems += 1
    print('%d objects, %d bytes, %d classes, %d objects by retained size compared: %d differences'
          % (mine['objects'], mine['bytes'], len(mine['classes']), len(theirs['largest']),
             problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
