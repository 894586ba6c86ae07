/**
 * `npm run bench:heap -- <file.heapsnapshot> [rows]`: what a V8 heap snapshot holds, without a browser.
 * Prints the self size by kind (and by constructor for objects), then the largest retainers: each node's
 * retained size over the dominator tree (what would be freed if it went), with the edge it hangs from.
 * Snapshots come from `BENCH_HEAP_SNAPSHOT=<dir> npm run bench` (server 1 after its scenarios) or any
 * process started with `--heapsnapshot-signal=SIGUSR2`.
 */
import fs from 'node:fs';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: npm run bench:heap -- <file.heapsnapshot> [rows]');
const rows = Number(rowsArg ?? 30);
const snap = JSON.parse(fs.readFileSync(file, 'utf8')) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [TYPE, NAME, SIZE, EDGES] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
const [E_TYPE, E_NAME, E_TO] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const WEAK = edgeTypes.indexOf('weak');
const { nodes, edges, strings } = snap;
const count = nodes.length / NF;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2).padStart(7)} MB`;
const typeOf = (v: number) => nodeTypes[nodes[v * NF + TYPE]];
const nameOf = (v: number) => strings[nodes[v * NF + NAME]];
const label = (v: number) => `${typeOf(v)} ${nameOf(v).replace(/\s+/g, ' ').slice(0, 70)}`;

// Self size by kind; objects, closures and native or hidden nodes by name (their constructor).
const byKind = new Map<string, { count: number; size: number }>();
let total = 0;
for (let v = 0; v < count; v++) {
  const type = typeOf(v);
  const key = ['object', 'closure', 'native', 'hidden'].includes(type) ? `${type} ${nameOf(v).slice(0, 60)}` : type;
  const entry = byKind.get(key) ?? { count: 0, size: 0 };
  entry.count++;
  entry.size += nodes[v * NF + SIZE];
  byKind.set(key, entry);
  total += nodes[v * NF + SIZE];
}
console.log(`${count} nodes, ${mb(total).trim()} in all (self sizes)\n\nself size by kind:`);
for (const [key, { count: n, size }] of [...byKind].sort((a, b) => b[1].size - a[1].size).slice(0, rows))
  console.log(`${mb(size)} ${String(n).padStart(8)}  ${key}`);

// Dominator tree (Cooper, Harvey and Kennedy's iteration over a post-order), weak edges left out.
const firstEdge = new Uint32Array(count + 1);
for (let v = 0, e = 0; v < count; v++) {
  firstEdge[v] = e;
  e += nodes[v * NF + EDGES] * EF;
  firstEdge[v + 1] = e;
}
const targetsOf = function* (v: number) {
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) if (edges[e + E_TYPE] !== WEAK) yield [e, edges[e + E_TO] / NF] as const;
};
const postIndex = new Int32Array(count).fill(-1);
const order: number[] = [];
const seen = new Uint8Array(count);
const cursor = Uint32Array.from(firstEdge.subarray(0, count));
const stack = [0];
seen[0] = 1;
while (stack.length > 0) {
  const v = stack[stack.length - 1];
  let next = -1;
  while (cursor[v] < firstEdge[v + 1] && next < 0) {
    const e = cursor[v];
    cursor[v] += EF;
    const w = edges[e + E_TO] / NF;
    if (edges[e + E_TYPE] !== WEAK && !seen[w]) next = w;
  }
  if (next >= 0) {
    seen[next] = 1;
    stack.push(next);
  } else {
    stack.pop();
    postIndex[v] = order.length;
    order.push(v);
  }
}
const predecessors: number[][] = Array.from({ length: count }, () => []);
for (const v of order) for (const [, w] of targetsOf(v)) predecessors[w].push(v);
const idom = new Int32Array(count).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (postIndex[a] < postIndex[b]) a = idom[a];
    while (postIndex[b] < postIndex[a]) b = idom[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let k = order.length - 2; k >= 0; k--) {
    const v = order[k];
    let dominator = -1;
    for (const u of predecessors[v]) if (idom[u] >= 0) dominator = dominator < 0 ? u : intersect(u, dominator);
    if (dominator >= 0 && idom[v] !== dominator) {
      idom[v] = dominator;
      changed = true;
    }
  }
}
const retained = new Float64Array(count);
for (const v of order) retained[v] += nodes[v * NF + SIZE];
for (const v of order) if (v !== 0) retained[idom[v]] += retained[v];
const edgeFrom = (v: number) => {
  for (const [e, w] of targetsOf(idom[v]))
    if (w === v) {
      const type = edgeTypes[edges[e + E_TYPE]];
      const name = type === 'element' || type === 'hidden' ? `[${edges[e + E_NAME]}]` : strings[edges[e + E_NAME]];
      return `${type} ${String(name).slice(0, 40)}`;
    }
  return '?';
};
const depth = (v: number) => {
  let d = 0;
  for (let u = v; u !== 0; u = idom[u]) d++;
  return d;
};
console.log(`\nlargest retainers (retained size, depth in the dominator tree, what, the edge it hangs from):`);
const largest = order.filter((v) => v !== 0).sort((a, b) => retained[b] - retained[a]);
for (const v of largest.slice(0, rows * 2))
  console.log(`${mb(retained[v])} d${String(depth(v)).padStart(2)}  ${label(v)}  <- ${edgeFrom(v)} of ${label(idom[v]).slice(0, 50)}`);
