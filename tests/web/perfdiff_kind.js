// Description: the web draws a perf diff of a kind it has never heard of
// from the columns the answer carries: the daemon's real exact diff of an
// experiment, turned into a made-up "cycles" answer (request interception:
// new keys, labels and formats, per-IO values derived here), is drawn on
// the experiment page (brief columns only) and on the perf-diff page (every
// column, sortable, no flame graph, no noise filter) with the values this
// test computed, formatted as the columns say.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const id = await L.exactExperiment(d, 'cycles');
	const real = (await d.api('GET', '/api/v1/experiments/' + id + '/perf-diff')).json;
	if (real.kind !== 'instructions' || !Array.isArray(real.columns)) throw new Error('no exact diff with columns: ' + JSON.stringify(real).slice(0, 200));

	// A "cycles" answer: 3 cycles per instruction, a miss every 40.
	const cyc = {
		kind: 'cycles', unit: 'estimated cycles per IO', source: real.source, sort: 'delta-abs',
		symbols: real.symbols, shown: real.shown, sides: real.sides, sampled_runs: 0,
		columns: [
			{ label: 'Cyc/IO', title: 'base cycles', format: 'f3', base: 'base_cyc', new: null, hint: null, mark: null, sort: 'baseline', brief: true },
			{ label: 'ΔCyc/IO', title: 'new - base', format: 's3', base: null, new: 'delta_cyc', hint: null, mark: null, sort: 'delta', brief: true },
			{ label: 'Miss/IO', title: 'LL misses', format: 'f3', base: null, new: 'new_miss', hint: null, mark: null, sort: 'miss', brief: false },
		],
		rows: real.rows.map((r) => ({ dso: r.dso, symbol: r.symbol, base_cyc: 3 * r.base_per_io, delta_cyc: 3 * r.delta_per_io, new_miss: r.new_per_io / 40 })),
	};
	const want = cyc.rows.map((r) => [r.base_cyc.toFixed(3), (r.delta_cyc > 0 ? '+' : r.delta_cyc < 0 ? '−' : '±') + Math.abs(r.delta_cyc).toFixed(3), r.new_miss.toFixed(3), r.dso, r.symbol]);

	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	await page.route(/\/api\/v1\/experiments\/\d+\/perf-diff/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(cyc) }));
	const cells = (sel) => page.$$eval(sel + ' tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
	const heads = (sel) => page.$$eval(sel + ' thead th', (ths) => ths.map((th) => th.textContent));

	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#perfdiff-top #perfdiff-table[data-kind="cycles"] tbody tr', { timeout: 10000 });
	let h = await heads('#perfdiff-top #perfdiff-table');
	if (h.join('|') !== 'Cyc/IO|ΔCyc/IO|Shared Object|Symbol') throw new Error('experiment page headers: ' + h.join('|'));
	let got = await cells('#perfdiff-top #perfdiff-table');
	const brief = want.map((w) => [w[0], w[1], w[3], w[4]]);
	if (JSON.stringify(got) !== JSON.stringify(brief)) throw new Error('experiment page rows:\n' + JSON.stringify(got) + '\nwant\n' + JSON.stringify(brief));
	console.log('ok experiment panel: ' + got.length + ' rows, brief columns');

	await L.open(page, d, '/experiments/' + id + '/perf-diff');
	await page.waitForSelector('#perfdiff #perfdiff-table[data-kind="cycles"] tbody tr');
	h = await heads('#perfdiff #perfdiff-table');
	if (h.join('|') !== 'Cyc/IO|ΔCyc/IO|Miss/IO|Shared Object|Symbol') throw new Error('perf-diff page headers: ' + h.join('|'));
	got = await cells('#perfdiff #perfdiff-table');
	// the default order: |ΔCyc/IO|, largest first
	const byAbs = [...want].sort((a, b) => Math.abs(parseFloat(b[1].replace('−', '-'))) - Math.abs(parseFloat(a[1].replace('−', '-'))));
	if (got.map((r) => r[4]).join() !== byAbs.map((r) => r[4]).join()) throw new Error('default order: ' + got.map((r) => r[4]));
	await page.click('#perfdiff-table th[data-key="miss"]');
	got = await cells('#perfdiff #perfdiff-table');
	const misses = got.map((r) => parseFloat(r[2]));
	if (!misses.every((x, i) => i === 0 || misses[i - 1] >= x)) throw new Error('not sorted by Miss/IO: ' + misses);
	if (JSON.stringify([...got].sort()) !== JSON.stringify([...want].sort())) throw new Error('perf-diff page cells:\n' + JSON.stringify(got));
	if (await page.$('#flame') || await page.$('#hide-noise')) throw new Error('a flame graph or a noise filter for a kind without samples');
	console.log('ok perf-diff page: ' + got.length + ' rows, sorted by Miss/IO');
	if (page.errors.length) throw new Error(page.errors.join('; '));
});
