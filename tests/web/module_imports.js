// Description: the web modules import downwards only: app.js (the router)
// may import the pages; a page imports only the shared modules in web/js
// (util, api, model, charts, widgets), never app.js or another page; the
// shared modules import neither app.js nor a page. No browser needed.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

const JS = path.join(L.WEB, 'js');
const rel = (f) => path.relative(JS, f);
const files = [];
for (const d of [JS, path.join(JS, 'pages')])
	for (const f of fs.readdirSync(d)) if (f.endsWith('.js')) files.push(path.join(d, f));

const bad = [];
let n = 0;
for (const f of files) {
	const src = fs.readFileSync(f, 'utf8');
	const re = /^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;
	for (let m; (m = re.exec(src));) {
		const spec = m[1] || m[2] || m[3];
		if (!spec.startsWith('.')) continue;
		n++;
		const to = rel(path.resolve(path.dirname(f), spec));
		const from = rel(f);
		const isPage = (x) => x.startsWith('pages/');
		if (!fs.existsSync(path.join(JS, to))) bad.push(from + ' imports a missing module ' + to);
		else if (to === 'app.js') bad.push(from + ' imports app.js (the router imports the pages)');
		else if (isPage(to) && from !== 'app.js') bad.push(from + ' imports the page ' + to);
	}
}
console.log(files.length + ' modules, ' + n + ' relative imports');
if (n < 20) L.fail('found only ' + n + ' imports: the scan is broken');
if (bad.length) L.fail(bad.join('; '));
console.log('ok');
