// Description: an experiment whose runs are all in and whose verdicts
// are still being computed (the API's state "running" with
// analysis_pending true) shows "analysing", not "running", on its page
// and in the experiment list; one still running shows "running". The
// answers are a real daemon's (a submitted patch experiment), with the
// state and flag set as the daemon sets them between the last upload and
// the analysis (lab/jobs.c), served through request interception.
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	const id = await L.submitPatch(d, { runs: 1 });
	const one = (await d.api('GET', '/api/v1/experiments/' + id, { key: d.keys.admin })).json;
	const list = (await d.api('GET', '/api/v1/experiments', { key: d.keys.admin })).json;
	if (one.analysis_pending !== false || list.experiments[0].analysis_pending !== false)
		throw new Error('the daemon does not send analysis_pending: ' + JSON.stringify(list.experiments[0]));
	let pending = true;
	const json = (body) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
	const as = (e) => Object.assign({}, e, { state: 'running', analysis_pending: pending });
	await page.route(new RegExp('/api/v1/experiments/' + id + '$'), (r) => r.fulfill(json(as(one))));
	await page.route(/\/api\/v1\/experiments(\?.*)?$/, (r) => r.fulfill(json(Object.assign({}, list,
		{ experiments: list.experiments.map(as) }))));

	for (const want of ['analysing', 'running']) {
		pending = want === 'analysing';
		await L.open(page, d, '/experiments/' + id);
		const badge = await page.waitForSelector('.state.state-' + want, { timeout: 10000 })
			.catch(async () => { throw new Error('experiment page: no ' + want + ' badge: ' + await page.textContent('body')); });
		if ((await badge.textContent()) !== want) throw new Error('badge: ' + await badge.textContent());
		await L.open(page, d, '/experiments');
		const row = await page.waitForSelector('.state.state-' + want, { timeout: 10000 })
			.catch(() => { throw new Error('list: no ' + want + ' badge'); });
		if ((await row.textContent()) !== want) throw new Error('list badge: ' + await row.textContent());
	}
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'analysing'));
});
