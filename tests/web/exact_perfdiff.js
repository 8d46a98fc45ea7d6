// Description: an experiment whose runs carry exact profiles (instruction
// counts from the QEMU TCG plugin): the experiment page's "where the cycles went" panel
// shows the exact table (instr/IO, delta per IO, the changed function on
// top, "runs differ" on a symbol whose runs disagree, the totals), the
// perf-diff page shows the whole exact table and links to the sampled
// profiles of the same runs, which still render as before.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const id = await L.exactExperiment(d);
	const pd = await d.api('GET', '/api/v1/experiments/' + id + '/perf-diff');
	if (pd.json.kind !== 'instructions') throw new Error('the API did not answer with the exact diff: ' + pd.text.slice(0, 200));

	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#perfdiff-top #perfdiff-table[data-kind="instructions"] tbody tr', { timeout: 10000 });
	const rows = await page.$$eval('#perfdiff-top #perfdiff-table[data-kind="instructions"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
	if (rows.length !== 6) throw new Error('expected 6 symbols, got ' + rows.length);
	const [b, n, dl, share, , dso, sym] = rows[0];
	if (sym !== 'blk_mq_put_tags' || b !== '50.000' || n !== '57.200' || dl !== '+7.200' || share !== '2.64 %' || dso !== '[kernel.kallsyms]')
		throw new Error('top row: ' + rows[0].join(' | '));
	const flagged = await page.$$eval('#perfdiff-top #perfdiff-table[data-kind="instructions"] tr.unstable td:last-child', (tds) => tds.map((t) => t.textContent));
	if (flagged.join() !== 'hrtimer_interrupt') throw new Error('runs-differ mark on: ' + flagged.join());
	if (!(await page.$('#perfdiff-top tr.unstable .unstable-mark'))) throw new Error('no "runs differ" mark');
	const totals = await page.textContent('#exact-totals');
	if (!/2157\.000 → tag 2167\.200 \(\+10\.200, \+0\.473 %\)/.test(totals)) throw new Error('totals: ' + totals);
	console.log('ok experiment panel: ' + totals.slice(0, 120));

	// The perf-diff page: the whole exact table, a link to the sampled one.
	await L.open(page, d, '/experiments/' + id + '/perf-diff');
	await page.waitForSelector('#perfdiff #perfdiff-table[data-kind="instructions"] tbody tr');
	const all = await page.$$eval('#perfdiff #perfdiff-table[data-kind="instructions"] tbody tr td:last-child', (tds) => tds.map((t) => t.textContent));
	if (all.length !== 6 || all[0] !== 'blk_mq_put_tags' || all[1] !== 'blk_mq_clear_rqs') throw new Error('perf-diff page rows: ' + all.join());
	console.log('ok ' + await L.shot(page, 'perf-diff-exact'));
	await page.click('#sampled-link');
	await page.waitForSelector('#perfdiff-table[data-kind="samples"] tbody tr', { timeout: 10000 });
	if (await page.$('#perfdiff #perfdiff-table[data-kind="instructions"]')) throw new Error('the sampled view still shows the exact table');
	console.log('ok perf-diff page: exact table, sampled link');
	if (page.errors.length) throw new Error(page.errors.join('; '));
});
