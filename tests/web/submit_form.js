// Description: the Submit page creates an experiment: uploading a patch file,
// choosing 2 runs and a title, then Submit posts it to /api/v1/patches and
// opens the new experiment's page, which shows the patch subject; a text
// that is not a patch is refused with the server's reason on the page; the
// queue lists the new experiment under state=queued (filter in the URL).
'use strict';
const L = require('./lib/lib.js');

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const page = await L.newPage(browser, d, d.keys.submit);
	await L.open(page, d, '/submit');
	// Not a patch: 400 with the reason, shown on the page.
	await page.fill('#patch-text', 'hello, this is not a patch');
	await page.click('#submit-button');
	const err = await page.waitForSelector('#submit-result .error', { timeout: 10000 });
	const et = await err.textContent();
	if (!/refused/.test(et)) throw new Error('bad patch message: ' + et);
	console.log('ok refused: ' + et.slice(0, 120));
	page.errors = page.errors.filter((e) => !/status of 400/.test(e));

	// Upload fills the text box; then submit.
	await page.fill('#patch-text', '');
	await page.setInputFiles('#patch-file', { name: '0001-web.patch', mimeType: 'text/x-patch', buffer: Buffer.from(L.PATCH('blk-mq: web submit form test')) });
	await page.waitForFunction(() => /web submit form test/.test(document.getElementById('patch-text').value), null, { timeout: 5000 })
		.catch(() => { throw new Error('the uploaded file did not fill the patch text'); });
	await page.fill('#runs', '2');
	await page.fill('#title', 'web form experiment');
	await page.click('#submit-button');
	await page.waitForSelector('#new-experiment', { timeout: 10000 });
	await page.waitForFunction(() => /^#\/experiments\/\d+$/.test(location.hash), null, { timeout: 10000 });
	const id = Number((await page.evaluate(() => location.hash)).split('/').pop());
	await page.waitForSelector('#experiment[data-id="' + id + '"] #progress-text', { timeout: 10000 });
	const title = await page.textContent('#experiment h1');
	if (!/web form experiment/.test(title)) throw new Error('title: ' + title);
	const prog = await page.textContent('#progress-text');
	if (!/0 \/ 4 runs/.test(prog)) throw new Error('expected 0 / 4 runs planned: ' + prog);
	const subj = await page.textContent('#patches .patch-subject');
	if (!/web submit form test/.test(subj)) throw new Error('subject: ' + subj);
	// The API agrees.
	const e = (await d.api('GET', '/api/v1/experiments/' + id)).json;
	if ((e.experiment || e).state !== 'queued') throw new Error('experiment state via API: ' + JSON.stringify(e).slice(0, 200));
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok experiment #' + id + ' ' + await L.shot(page, 'submit-created'));
	// The queue lists it; the state filter is in the URL.
	await L.open(page, d, '/experiments?state=queued');
	await page.waitForSelector('#queue-table tr[data-id="' + id + '"]');
	if ((await page.inputValue('#state-filter')) !== 'queued') throw new Error('state filter not taken from the URL');
	await page.selectOption('#state-filter', 'done');
	await page.waitForSelector('#queue-empty', { timeout: 10000 });
	if (!/state=done/.test(page.url())) throw new Error('filter not in URL: ' + page.url());
	await L.open(page, d, '/submit');
	await L.shot(page, 'submit-form');
});
