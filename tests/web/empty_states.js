// Description: on a fresh lab (empty database) every page shows an empty
// state that says what to do (no blank page, no console error), and an
// unknown experiment id shows a 404 message with a way back.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	const checks = [
		['/experiments', '#queue-empty', /Submit a patch|perflab submit/],
		['/hosts', '#hosts-empty', /perflab-runner/],
		['/alerts', '#alerts-empty', /No alerts/, '/api/v1/alerts'],
		['/trends', '#trends-empty', /series\/import|baselines/, '/api/v1/series'],
	];
	const missing = [];
	for (const [route, sel, re, ep] of checks) {
		if (ep && !(await L.hasEndpoint(d, 'GET', ep))) { missing.push(ep); continue; }
		await L.open(page, d, route);
		const el = await page.waitForSelector(sel, { timeout: 10000 });
		const text = await el.textContent();
		if (!re.test(text)) throw new Error(route + ': empty state does not say what to do: ' + text);
		if (page.errors.length) throw new Error(route + ': ' + page.errors.join('; '));
		console.log('ok ' + route + ': ' + text.slice(0, 80));
	}
	await L.shot(page, 'empty-queue');
	// An experiment that does not exist: an error that says what to do.
	page.errors = [];
	await L.open(page, d, '/experiments/999999');
	const err = await page.waitForSelector('.error', { timeout: 10000 });
	const t = await err.textContent();
	if (!/404/.test(t) || !(await err.$('a[href="#/experiments"]'))) throw new Error('404 page lacks status or way back: ' + t);
	console.log('ok 404: ' + t.slice(0, 100));
	if (missing.length) throw new L.Skip('other empty states fine; endpoint missing: ' + missing.join(', '));
});
