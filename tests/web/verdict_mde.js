// Description: the verdict panel never shows a misleading zero MDE. The
// experiment answer is rewritten in the browser to carry four comparisons
// as the verdict JSON gives them: MDE exactly 0 with no_noise_estimate
// false (identical runs) shows "—" titled "exact: no run-to-run noise"; a
// tiny MDE (0.0004 %) keeps two significant digits; no_noise_estimate true
// and an old row (MDE 0, no flag) show "no noise estimate". No "±0.00 %".
'use strict';
const L = require('./lib/lib.js');

const cmp = (variant, metric, verdict, mde, result) => ({
	variant, control: 'base', metric, verdict, delta_pct: 0.01, ci_low: -0.02, ci_high: 0.03,
	p_value: 0.5, mde_pct: mde, runs: 5, ...(result ? { result } : {}),
});

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const id = await L.submitPatch(d, { runs: 5 });
	const e = (await d.api('GET', '/api/v1/experiments/' + id)).json;
	const names = e.variants.map((v) => v.name);
	const v = names[names.length - 1];
	const comps = [
		cmp(v, 'iops', 'no change', 0, { no_noise_estimate: false, reason: 'p 0.5 >= 0.01' }),
		cmp(v, 'ns_per_io', 'no change', 0.0004, { no_noise_estimate: false, reason: 'p 0.5 >= 0.01' }),
		cmp(v, 'iops', 'inconclusive', null, { no_noise_estimate: true, reason: 'no noise estimate: identical runs and no host calibration' }),
		cmp(v, 'ns_per_io', 'inconclusive', 0),
	];
	const page = await L.newPage(browser, d);
	await page.route(new RegExp('/api/v1/experiments/' + id + '$'), async (route) => {
		const res = await route.fetch();
		const body = await res.json();
		body.comparison = comps;
		await route.fulfill({ response: res, json: body });
	});
	await L.open(page, d, '/experiments/' + id);
	await page.waitForSelector('#verdict .verdict');
	// The value next to each "MDE (minimum detectable effect)" label.
	const cells = await page.$$eval('#verdict .lbl', (els) => els.filter((x) => x.textContent.startsWith('MDE'))
		.map((x) => x.nextElementSibling).map((x) => ({ text: x.textContent, title: x.title })));
	const verdict = await page.textContent('#verdict');
	console.log('MDE cells: ' + JSON.stringify(cells));
	if (cells.length !== 4) throw new Error('expected 4 MDE cells, got ' + cells.length);
	// The page sorts nothing here; find each by what it must say.
	const exact = cells.filter((c) => c.text === '—' && /exact: no run-to-run noise/.test(c.title));
	const tiny = cells.filter((c) => c.text === '±0.00040 %');
	const none = cells.filter((c) => c.text === 'no noise estimate');
	if (exact.length !== 1) throw new Error('MDE 0 with identical runs is not a dash titled "exact: no run-to-run noise": ' + JSON.stringify(cells));
	if (tiny.length !== 1) throw new Error('MDE 0.0004 % lost its significant digits: ' + JSON.stringify(cells));
	if (none.length !== 2) throw new Error('no noise estimate (flag, or old row with MDE 0) not said: ' + JSON.stringify(cells));
	if (/±\s*0\.00 %|resolve at this run count is 0\.00 %/.test(verdict)) throw new Error('a zero MDE is printed: ' + verdict);
	if (!/Exact: the runs were identical/.test(verdict)) throw new Error('the sentence of the exact comparison does not say why there is no MDE: ' + verdict);
	if (!/resolve at this run count is 0\.00040 %/.test(verdict)) throw new Error('the tiny MDE sentence lacks its digits: ' + verdict);
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'verdict-mde'));
});
