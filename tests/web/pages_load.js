// Description: every dashboard page (queue, experiment, perf diff, trends,
// hosts, alerts, submit, compare logs, tracks, watches) loads against a real perflabd populated through
// the API without console errors, in light and dark colour schemes, and a
// screenshot of each is saved under build/screenshots/.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const lab = await L.populateLab(d, { runs: 3 });
	const missing = [];
	let seriesOk = await L.hasEndpoint(d, 'POST', '/api/v1/series/import');
	if (seriesOk) {
		try {
			await d.api('POST', '/api/v1/series/import', { json: { name: 'qd128-512b-randread', metric: 'iops', points: L.seriesPoints() } });
		} catch (e) { throw new Error('series import failed: ' + e.message); }
	} else missing.push('POST /api/v1/series/import');

	const pages = [
		['queue', '/experiments', '#queue-table'],
		['experiment', '/experiments/' + lab.done, '#verdict'],
		['experiment-queued', '/experiments/' + lab.queued, '#experiment'],
		['perf-diff', '/experiments/' + lab.done + '/perf-diff', '#perfdiff', 'GET', '/api/v1/experiments/' + lab.done + '/perf-diff'],
		['trends', '/trends', '#trends', 'GET', '/api/v1/series'],
		['hosts', '/hosts', '#hosts-table'],
		['alerts', '/alerts', '#alerts', 'GET', '/api/v1/alerts'],
		['submit', '/submit', '#submit-form'],
		['compare', '/compare', '#compare-form'],
		['tracks', '/tracks', '#tracks', 'GET', '/api/v1/tracks'],
		['watches', '/watches', '#watches', 'GET', '/api/v1/watches'],
	];
	let checked = 0;
	for (const scheme of ['light', 'dark']) {
		const page = await L.newPage(browser, d, d.keys.admin, { colorScheme: scheme });
		for (const [name, route, sel, m, ep] of pages) {
			if (ep && !(await L.hasEndpoint(d, m, ep))) {
				if (scheme === 'light') missing.push(m + ' ' + ep);
				continue;
			}
			await L.open(page, d, route);
			await page.waitForSelector(sel, { timeout: 10000 });
			await page.waitForTimeout(300);	// late fetches (perf-diff top, flame graph)
			if (await page.$('.error')) throw new Error(name + ': page shows an error: ' + await page.textContent('.error'));
			if (page.errors.length) throw new Error(name + ' (' + scheme + '): ' + page.errors.join('; '));
			const p = await L.shot(page, scheme === 'light' ? name : name + '-dark');
			console.log('ok ' + name + ' (' + scheme + ') ' + p);
			checked++;
		}
		await page.context().close();
	}
	if (missing.length) throw new L.Skip(checked + ' page views fine; not checked, endpoint missing (404/405): ' + [...new Set(missing)].join(', '));
});
