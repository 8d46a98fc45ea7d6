// Description: the API key: a browser without a key gets the key dialog when
// the API answers 401; a wrong key is refused and asked again; the right key
// is kept in localStorage, sent as Authorization: Bearer, and survives a
// reload (no second prompt).
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	await L.submitPatch(d, { runs: 1, subject: 'auth test patch' });
	const page = await L.newPage(browser, d, null);
	const auth = [];
	page.on('request', (r) => { if (r.url().includes('/api/v1/experiments')) auth.push(r.headers().authorization || ''); });
	await page.goto(d.url + '/#/experiments');
	await page.waitForSelector('#key-dialog[open]', { timeout: 10000 });
	await L.shot(page, 'key-dialog');
	await page.fill('#key-input', 'plk_wrong_key');
	await page.click('#key-save');
	// Refused: the dialog comes back saying so.
	await page.waitForFunction(() => { const dl = document.getElementById('key-dialog'); return dl && dl.open && /refused/.test(dl.textContent); }, null, { timeout: 10000 });
	await page.fill('#key-input', d.keys.submit);
	await page.click('#key-save');
	await page.waitForSelector('#queue-table', { timeout: 10000 });
	const stored = await page.evaluate(() => localStorage.getItem('perflab.key'));
	if (stored !== d.keys.submit) throw new Error('key not kept in localStorage');
	if (!auth.includes('Bearer ' + d.keys.submit)) throw new Error('key not sent as Bearer: ' + auth);
	await page.reload();
	await page.waitForSelector('#queue-table', { timeout: 10000 });
	if (await page.$('#key-dialog[open]')) throw new Error('asked for the key again after reload');
	// Only the 401s of the key-less and wrong-key requests may be logged.
	const other = page.errors.filter((e) => !/status of 401/.test(e));
	if (other.length) throw new Error(other.join('; '));
	console.log('ok: prompted on 401, key kept and sent');
});
