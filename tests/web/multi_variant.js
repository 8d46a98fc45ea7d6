// Description: an experiment with three variants (base / tag / both, as in
// DESIGN.md): the runs chart and strip plot show three colours, the verdict
// panel has one comparison per non-control variant, and the perf-diff page
// lets the reader pick the variant (kept in the URL), re-drawing the table.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	const r = await d.api('POST', '/api/v1/experiments', {
		key: d.keys.submit,
		json: { title: 'base / tag / both', runs: 3, bench: { runtime: 8, warmup: 2 },
			variants: [{ name: 'base' }, { name: 'tag', cmdline: 'perflab_canary=1' }, { name: 'both', cmdline: 'perflab_canary=2' }] },
	});
	const id = r.json.id;
	const shift = { base: [3540000, 0], tag: [3520000, 0.3], both: [3500000, 0.6] };
	await L.runAllJobs(d, host, d.keys.runner, (job) => ({ seconds: 8, iops: shift[job.variant.name][0], delta: shift[job.variant.name][1] }));
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#runs-chart canvas');
	const legend = await page.textContent('#runs-chart .legend-inline');
	if (!/base \(\d+ runs\)/.test(legend) || !/tag \(\d+ runs\)/.test(legend) || !/both \(\d+ runs\)/.test(legend)) throw new Error('legend: ' + legend);
	const colours = await page.$$eval('#runs-chart .swatch', (s) => [...new Set(s.map((x) => getComputedStyle(x).backgroundColor))]);
	if (colours.length !== 3) throw new Error('expected 3 colours: ' + colours);
	const heads = await page.$$eval('#verdict h3', (x) => x.map((e) => e.textContent));
	console.log('comparisons: ' + heads.join(' | '));
	if (!heads.some((t) => /^tag vs base/.test(t)) || !heads.some((t) => /^both vs base/.test(t))) throw new Error('missing a comparison: ' + heads);
	await L.open(page, d, '/experiments/' + id + '/perf-diff');
	await page.waitForSelector('#variant-select');
	const opts = await page.$$eval('#variant-select option', (o) => o.map((x) => x.value));
	if (opts.join() !== 'tag,both') throw new Error('variant choices: ' + opts);
	const top = () => page.textContent('#perfdiff-table tbody tr:first-child');
	const before = await top();
	await page.selectOption('#variant-select', 'both');
	await page.waitForFunction(() => /variant=both/.test(location.hash) && document.querySelector('#perfdiff-table tbody tr'), null, { timeout: 10000 });
	await page.waitForFunction((b) => document.querySelector('#perfdiff-table tbody tr:first-child').textContent !== b, before, { timeout: 10000 })
		.catch(() => { throw new Error('table did not change with the variant'); });
	console.log('tag top row: ' + before + '\nboth top row: ' + await top());
	await page.reload();
	await page.waitForSelector('#variant-select');
	if ((await page.inputValue('#variant-select')) !== 'both') throw new Error('variant not kept in the URL');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'perf-diff-multi'));
});
