// The experiment page of a LAVA-run experiment lists its LAVA jobs: run by
// tests/lava/e2e.sh against its perflabd (not a test of its own).
//   node tests/lava/page.js BASE_URL ADMIN_KEY EXPERIMENT_ID LAVA_ID...
'use strict';
const L = require('../web/lib/lib.js');

const [base, key, id, ...ids] = process.argv.slice(2);
L.run(async (onCleanup) => {
	const d = { url: base, keys: { admin: key } };
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + id, 30000);
	const t = await (await page.waitForSelector('#lava-jobs', { timeout: 15000 })).textContent();
	for (const l of ids) if (!t.includes('#' + l)) throw new Error('LAVA job #' + l + ' is not on the page: ' + t.slice(0, 300));
	const links = await page.$$eval('#lava-jobs a', (as) => as.map((a) => a.getAttribute('href')));
	if (links.length !== ids.length || !links.every((h) => /\/scheduler\/job\/\d+$/.test(h))) throw new Error('links to LAVA: ' + links.join(' '));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok ' + await L.shot(page, 'experiment-lava'));
});
