// Helper of tests/bisect/bisect.sh (not a test itself): the bisection page
// of a running lab ($BASE, key $KEY) shows bisection $BIS with culprit $C5
// and the skipped step $C6, and its perf diff link.
'use strict';
const L = require('../web/lib/lib.js');

L.run(async (onCleanup) => {
	const d = { url: process.env.BASE, keys: { admin: process.env.KEY } };
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/bisections/' + process.env.BIS, 30000);
	await page.waitForSelector('#bisection-steps');
	const culprit = await page.textContent('#culprit-commit');
	if (culprit !== process.env.C5) throw new Error('culprit on the page: ' + culprit);
	const skipped = await page.$$eval('#bisection-steps tbody tr.step-skipped', (t) => t.map((r) => r.dataset.commit));
	if (!skipped.includes(process.env.C6)) throw new Error('skipped steps on the page: ' + skipped.join(','));
	if (!(await page.$('#culprit-perfdiff'))) throw new Error('no perf diff link');
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('web page ok: ' + await L.shot(page, 'bisection-e2e'));
});
