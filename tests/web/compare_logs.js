// Description: the Compare logs page: pasting the two t/io_uring blocks of
// seed 001 ("Old behavior" / "Turning it on", tests/fixtures/seed001-*.log)
// shows the verdict "no change" with delta %, 95 % CI and MDE, and the
// LKP-style table; text that is no benchmark output gets the server's reason.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	if (!(await L.hasEndpoint(d, 'POST', '/api/v1/compare'))) throw new L.Skip('POST /api/v1/compare is missing (404/405)');
	const browser = await L.launchBrowser(onCleanup);
	const fx = (n) => fs.readFileSync(path.join(L.TOP, 'tests/fixtures', n), 'utf8');
	const page = await L.newPage(browser, d, d.keys.submit);
	await L.open(page, d, '/compare');
	const texts = await page.$$('#compare .log-text');
	await texts[0].fill(fx('seed001-old.log'));
	await texts[1].fill(fx('seed001-new.log'));
	await page.click('#compare-button');
	await page.waitForSelector('#compare-result #verdict', { timeout: 15000 });
	const v = (await page.textContent('#compare-result #verdict')).replace(/\s+/g, ' ');
	console.log('verdict: ' + v.slice(0, 300));
	if (!/no change/.test(v)) throw new Error('seed 001 should read as no change: ' + v);
	if (!/95 % CI/.test(v) || !/MDE/.test(v) || !/%/.test(v)) throw new Error('verdict lacks CI, MDE or %: ' + v);
	const t = await page.textContent('#compare-text');
	if (!/%change/.test(t) || !/iops/.test(t)) throw new Error('no LKP table: ' + t);
	await L.shot(page, 'compare-result');
	// Not benchmark output: 400 with the reason shown.
	await texts[0].fill('hello');
	await texts[1].fill('world');
	await page.click('#compare-button');
	const err = await page.waitForSelector('#compare-result .error', { timeout: 10000 });
	console.log('refused: ' + (await err.textContent()).slice(0, 150));
	const other = page.errors.filter((e) => !/status of (400|422)/.test(e));
	if (other.length) throw new Error(other.join('; '));
	console.log('ok');
});
