// Page speed of the dashboards in headless Chromium against a real perflabd
// (figures, not assertions). Goals:
//   experiment page, 20 runs x 60 s per variant + 5K-symbol perf diff: < 1 s
//   trends page, 5 years of daily points for 10 hosts:                 < 1 s
// "Rendered" = from navigation start until the page has drawn everything
// it shows (the app's data-ready mark, set after charts and tables draw).
'use strict';
const path = require('path');
const L = require(path.join(__dirname, '../tests/web/lib/lib.js'));

const REPS = Number(process.env.REPS || 5);
const RUNS = Number(process.env.RUNS || 20);

// sel: CSS selector that must exist; min: how many of it.
async function measure(browser, d, route, sel, { min = 1, viewport = null } = {}) {
	const times = [];
	let bytes = 0;
	for (let i = 0; i < REPS; i++) {
		const page = await L.newPage(browser, d, d.keys.admin, viewport ? { viewport } : {});
		await page.goto(d.url + '/#' + route);
		await page.waitForFunction(([s, n]) => { const a = document.getElementById('app'); return a.dataset.ready && document.querySelectorAll(s).length >= n; }, [sel, min], { timeout: 60000 });
		const ms = await page.evaluate(() => performance.now());
		times.push(ms);
		bytes = await page.evaluate(() => performance.getEntriesByType('resource').reduce((a, e) => a + (e.decodedBodySize || 0), 0));
		if (page.errors.length) console.log('  page errors: ' + page.errors.join('; '));
		if (i === REPS - 1) await L.shot(page, 'bench-' + route.split('/')[1]);
		await page.context().close();
	}
	times.sort((a, b) => a - b);
	return { median: times[times.length >> 1], min: times[0], max: times[times.length - 1], bytes };
}

// Server time of one API call (median of 5, from node), for the breakdown.
async function apiTime(d, p) {
	const t = [];
	let bytes = 0;
	for (let i = 0; i < 5; i++) {
		const t0 = performance.now();
		bytes = (await d.api('GET', p)).text.length;
		t.push(performance.now() - t0);
	}
	t.sort((a, b) => a - b);
	console.log('  API ' + p.padEnd(52) + ' median ' + t[2].toFixed(0).padStart(4) + ' ms, ' + (bytes / 1024).toFixed(0) + ' KiB');
}

const line = (name, r, goal) => console.log(
	name.padEnd(58) + ' median ' + r.median.toFixed(0).padStart(5) + ' ms  (min ' + r.min.toFixed(0) + ', max ' + r.max.toFixed(0) + ' ms, ' + REPS + ' loads, ' +
	(r.bytes / 1024).toFixed(0) + ' KiB loaded)  goal < ' + goal + ' ms: ' + (r.median < goal ? 'met' : 'NOT met'));

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const host = await L.registerHost(d);
	let t0 = Date.now();
	const id = await L.submitPatch(d, { runs: RUNS, subject: 'blk-mq: web-speed benchmark' });
	const n = await L.runAllJobs(d, host, d.keys.runner, { seconds: 60, nsyms: 5000 });
	console.log('load average: ' + require('os').loadavg().map((x) => x.toFixed(1)).join(' ') + ' on ' + require('os').cpus().length + ' CPUs (shared machine)');
	console.log('populated: experiment #' + id + ', ' + n + ' runs x 60 s, 5000 symbols per profile (' + ((Date.now() - t0) / 1000).toFixed(1) + ' s of uploads)');

	await apiTime(d, '/api/v1/experiments/' + id);
	await apiTime(d, '/api/v1/experiments/' + id + '/perf-diff?limit=10');
	await apiTime(d, '/api/v1/experiments/' + id + '/perf-diff');
	line('experiment page (' + n + ' runs x 60 s, perf-diff top)', await measure(browser, d, '/experiments/' + id, '#runs-chart canvas'), 1000);
	if (await L.hasEndpoint(d, 'GET', '/api/v1/experiments/' + id + '/perf-diff')) {
		const pd = await d.api('GET', '/api/v1/experiments/' + id + '/perf-diff');
		const rows = (pd.json.rows || []).length;
		line('perf-diff page (' + rows + ' symbols): top 200 rows drawn', await measure(browser, d, '/experiments/' + id + '/perf-diff', '#perfdiff-table tbody tr'), 1000);
		line('perf-diff page (' + rows + ' symbols): all loaded, sortable', await measure(browser, d, '/experiments/' + id + '/perf-diff', '#perfdiff[data-complete]'), 1000);
	} else console.log('perf-diff page: not measured, GET /api/v1/experiments/{id}/perf-diff is missing');

	if (await L.hasEndpoint(d, 'POST', '/api/v1/series/import')) {
		t0 = Date.now();
		const days = 5 * 365 + 1;
		for (let hI = 0; hI < 10; hI++)
			await d.api('POST', '/api/v1/series/import', { json: { name: 'qd128-512b-randread-host' + hI, metric: 'iops', points: L.seriesPoints({ days, start: Date.UTC(2021, 0, 1) / 1000, seed: 100 + hI, step: hI % 3 ? 0 : -0.04 }) } });
		console.log('populated: 10 series x ' + days + ' daily points (' + ((Date.now() - t0) / 1000).toFixed(1) + ' s of imports)');
		await apiTime(d, '/api/v1/series');
		line('trends page (10 x 5 y daily), charts in a 1366x900 view', await measure(browser, d, '/trends', '#trends .series canvas'), 1000);
		line('trends page (10 x 5 y daily), all 10 charts (1366x4000)', await measure(browser, d, '/trends', '#trends .series .u-wrap', { min: 10, viewport: { width: 1366, height: 4000 } }), 1000);
	} else console.log('trends page: not measured, POST /api/v1/series/import is missing');
});
