// Description: alert triage in place: the alert raised for a regression
// verdict (or, without one, for a change point in an imported series) is
// listed on the Alerts page; changing its state in the row's select saves
// it (PATCH /api/v1/alerts/{id}), and the new state is still there after a
// reload and through the API, with who changed it in its history; the
// state filter is in the URL.
'use strict';
const L = require('./lib/lib.js');

const list = (j) => (Array.isArray(j) ? j : j.alerts || j.items || []);

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	if (!(await L.hasEndpoint(d, 'GET', '/api/v1/alerts'))) throw new L.Skip('GET /api/v1/alerts is missing (404)');
	const browser = await L.launchBrowser(onCleanup);
	await L.populateLab(d, { runs: 4 });	// the patched variant regresses
	let alerts = list((await d.api('GET', '/api/v1/alerts')).json);
	if (!alerts.length && await L.hasEndpoint(d, 'POST', '/api/v1/series/import')) {
		await d.api('POST', '/api/v1/series/import', { json: { name: 'qd128-512b-randread', metric: 'iops', points: L.seriesPoints({ step: -0.05 }) } });
		alerts = list((await d.api('GET', '/api/v1/alerts')).json);
	}
	if (!alerts.length) throw new Error('neither a regression verdict nor a -5 % step raised an alert');
	const a = alerts[0];
	console.log('alert #' + a.id + ' (' + a.kind + ', ' + a.state + '): ' + a.title);
	const page = await L.newPage(browser, d, d.keys.submit);
	await L.open(page, d, '/alerts');
	const sel = '#alerts-table select.triage[data-id="' + a.id + '"]';
	await page.waitForSelector(sel);
	if ((await page.inputValue(sel)) !== a.state) throw new Error('shown state differs from the API');
	await page.selectOption(sel, 'investigating');
	await page.waitForFunction((s) => /saved/.test(document.querySelector(s).parentElement.textContent), sel, { timeout: 10000 })
		.catch(async () => { throw new Error('not saved: ' + await page.textContent('#alert-msg')); });
	await page.reload();
	await page.waitForSelector(sel);
	if ((await page.inputValue(sel)) !== 'investigating') throw new Error('triage state lost after reload: ' + await page.inputValue(sel));
	const b = list((await d.api('GET', '/api/v1/alerts')).json).find((x) => x.id === a.id);
	if (!b || b.state !== 'investigating') throw new Error('API does not have the new state: ' + JSON.stringify(b));
	const last = '#alerts-table tr[data-id="' + a.id + '"] td:last-child';
	if (!/by web-submitter/.test(await page.textContent(last))) throw new Error('who changed it is not shown: ' + await page.textContent(last));
	await page.click(last + ' details.history summary');
	await page.waitForSelector(last + ' details.history li:has-text("investigating")', { timeout: 10000 });
	console.log('history: ' + (await page.textContent(last + ' details.history')).replace(/\s+/g, ' '));
	// Filter in the URL.
	await L.open(page, d, '/alerts?state=investigating');
	await page.waitForSelector(sel);
	await L.open(page, d, '/alerts?state=fixed');
	await page.waitForSelector('#alerts-empty');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	await L.open(page, d, '/alerts');
	await page.waitForSelector(sel);
	console.log('ok alert #' + a.id + ' ' + a.state + ' -> investigating persisted; ' + await L.shot(page, 'alerts-triaged'));
});
