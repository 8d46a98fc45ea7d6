// Description: the perf-diff page shows the symbol table of a finished
// experiment (300 symbols: the 200 largest first, all on "Show all"), sorts it by clicking column headers (delta, baseline, symbol;
// twice = reverse), filters by symbol and shared object with the filter in
// the URL (a reload keeps it), marks deltas within noise and shows the
// differential flame graph.
'use strict';
const L = require('./lib/lib.js');

const num = (s) => {
	const m = String(s).replace('−', '-').match(/[-+]?\d+(\.\d+)?/);
	return m ? parseFloat(m[0]) : null;
};

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const lab = await L.populateLab(d, { runs: 3, nsyms: 300 });
	if (!(await L.hasEndpoint(d, 'GET', '/api/v1/experiments/' + lab.done + '/perf-diff')))
		throw new L.Skip('GET /api/v1/experiments/{id}/perf-diff is missing (404)');
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + lab.done + '/perf-diff');
	await page.waitForSelector('#perfdiff-table tbody tr');
	const col = async (i) => page.$$eval('#perfdiff-table tbody tr', (trs, i) => trs.map((tr) => tr.children[i].textContent), i);
	// The largest 200 first, then all 300.
	await page.waitForSelector('#perfdiff[data-complete]', { timeout: 10000 });
	let nrows = (await col(0)).length;
	if (nrows !== 200) throw new Error('expected the first 200 of 300 rows, got ' + nrows);
	await page.click('#show-all');
	nrows = (await col(0)).length;
	if (nrows !== 300) throw new Error('show all: expected 300 rows, got ' + nrows);

	const isSorted = (a, dir) => a.every((x, i) => i === 0 || (dir === 'asc' ? a[i - 1] <= x : a[i - 1] >= x));
	// Delta: first click descending, second ascending.
	await page.click('#perfdiff-table th[data-key="delta"]');
	let deltas = (await col(2)).map(num).filter((x) => x !== null);
	if (!isSorted(deltas, 'desc')) throw new Error('delta not descending: ' + deltas.slice(0, 10));
	if (!/sort=delta/.test(page.url())) throw new Error('sort not in URL: ' + page.url());
	await page.click('#perfdiff-table th[data-key="delta"]');
	deltas = (await col(2)).map(num).filter((x) => x !== null);
	if (!isSorted(deltas, 'asc')) throw new Error('delta not ascending: ' + deltas.slice(0, 10));
	await page.click('#perfdiff-table th[data-key="baseline"]');
	const base = (await col(0)).map(num).filter((x) => x !== null);
	if (!isSorted(base, 'desc')) throw new Error('baseline not descending: ' + base.slice(0, 10));
	await page.click('#perfdiff-table th[data-key="symbol"]');
	const syms = await col(7);
	const sortedSyms = [...syms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	if (syms.join('\n') !== sortedSyms.join('\n')) throw new Error('symbols not ascending: ' + syms.slice(0, 5));
	console.log('ok sorting: ' + nrows + ' rows');

	// Filter by symbol; the URL carries it; a reload keeps it.
	await page.fill('#symbol-filter', 'blk_mq');
	let shown = await col(7);
	if (!shown.length || !shown.every((s) => s.includes('blk_mq'))) throw new Error('symbol filter: ' + shown);
	if (!/q=blk_mq/.test(page.url())) throw new Error('filter not in URL: ' + page.url());
	await page.reload();
	await page.waitForSelector('#perfdiff-table tbody tr');
	shown = await col(7);
	if (!shown.every((s) => s.includes('blk_mq')) || (await page.inputValue('#symbol-filter')) !== 'blk_mq') throw new Error('filter lost on reload');
	await page.fill('#symbol-filter', '');
	await page.selectOption('#dso-filter', 'perflab-bench');
	const dsos = await col(6);
	if (!dsos.length || !dsos.every((s) => s === 'perflab-bench')) throw new Error('dso filter: ' + dsos.slice(0, 5));
	await page.selectOption('#dso-filter', '');
	console.log('ok filters');

	// Noise marks: 3 runs per side, most symbols move within noise.
	const marks = await page.$$eval('#perfdiff-table .noise-mark', (e) => e.length);
	console.log('noise marks: ' + marks);
	if (marks < 1) throw new Error('no delta marked as within noise');

	// Flame graph (if the endpoint exists).
	if (await L.hasEndpoint(d, 'GET', '/api/v1/experiments/' + lab.done + '/flamegraph.svg?variant=patched')) {
		await page.waitForSelector('#flame-svg', { timeout: 10000 });
		const f = await page.$eval('#flame-svg', (s) => ({ rects: s.querySelectorAll('rect').length, titles: [...s.querySelectorAll('title')].map((t) => t.textContent), w: s.getBoundingClientRect().width }));
		if (f.rects < 5 || !f.titles.some((t) => t.startsWith('blk_mq_get_tag'))) throw new Error('flame graph lacks frames: ' + JSON.stringify(f).slice(0, 300));
		if (await page.$('#flame-svg script, #flame-svg [onload], #flame-svg [onclick]')) throw new Error('flame graph kept script content');
		console.log('ok flame graph: ' + f.rects + ' frames, ' + Math.round(f.w) + ' px wide');
	} else console.log('flamegraph.svg missing: not checked');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	await page.click('#perfdiff-table th[data-key="delta"]');
	console.log('ok ' + await L.shot(page, 'perf-diff-sorted'));
});
