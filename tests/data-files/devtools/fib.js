// A small CPU- and allocation-bound script for node --cpu-prof / --heap-prof.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function makeStrings(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({ id: i, text: 'item ' + i + ' '.repeat(i % 50) });
  return out;
}
function sortThem(list) { return list.slice().sort((a, b) => b.text.length - a.text.length); }
const start = Date.now();
let total = 0;
while (Date.now() - start < 400) {
  total += fib(20);
  total += sortThem(makeStrings(2000)).length;
}
console.log(total > 0 ? 'done' : 'none');
