// perflab web: router and page shell. Hash routes keep every view
// shareable without server-side routing:
//   #/experiments[?state=]            queue
//   #/experiments/ID                  experiment
//   #/experiments/ID/perf-diff[?variant=&q=&dso=&sort=&dir=]
//   #/trends[?series=&from=&to=]      #/hosts   #/alerts[?state=]   #/submit
//   #/compare                         compare pasted logs (nothing stored)
//   #/tracks   #/tracks/ID            git tracks, commit by commit
//   #/bisections/ID                   a bisection's steps and culprit
//   #/watches  #/watches/ID           list watches: series, versions side by side
import { h, clear, parseHash } from './util.js';
import { askKey, getKey, setKey, subscribe } from './api.js';
import { errorBox } from './widgets.js';
import * as queue from './pages/queue.js';
import * as experiment from './pages/experiment.js';
import * as perfdiff from './pages/perfdiff.js';
import * as trends from './pages/trends.js';
import { loadMetricDefs } from './metrics.js';
import { loadFailureReasons } from './failures.js';
import * as hosts from './pages/hosts.js';
import * as alerts from './pages/alerts.js';
import * as submit from './pages/submit.js';
import * as compare from './pages/compare.js';
import * as tracks from './pages/tracks.js';
import * as bisection from './pages/bisection.js';
import * as watches from './pages/watches.js';

const routes = [
	[/^\/?$/, 'experiments', queue],
	[/^\/experiments\/?$/, 'experiments', queue],
	[/^\/experiments\/(\d+)\/perf-diff\/?$/, 'experiments', perfdiff],
	[/^\/experiments\/(\d+)\/?$/, 'experiments', experiment],
	[/^\/trends\/?$/, 'trends', trends],
	[/^\/hosts\/?$/, 'hosts', hosts],
	[/^\/alerts\/?$/, 'alerts', alerts],
	[/^\/submit\/?$/, 'submit', submit],
	[/^\/compare\/?$/, 'compare', compare],
	[/^\/tracks\/?$/, 'tracks', tracks],
	[/^\/tracks\/(\d+)\/?$/, 'tracks', tracks],
	[/^\/bisections\/(\d+)\/?$/, 'tracks', bisection],
	[/^\/watches\/?$/, 'watches', watches],
	[/^\/watches\/(\d+)\/?$/, 'watches', watches],
];

const app = document.getElementById('app');
let current = null;		// {mod, ctx}
let renderSeq = 0;
const listeners = new Set();

// Pages receive ctx: {el, params, query, onEvent(fn), signal, seq}
async function render() {
	const seq = ++renderSeq;
	if (current && current.ctx.cleanup) for (const f of current.ctx.cleanup) try { f(); } catch { /* ignore */ }
	listeners.clear();
	const { path, query } = parseHash();
	let found = null;
	for (const [re, nav, mod] of routes) {
		const m = path.match(re);
		if (m) { found = { nav, mod, params: m.slice(1) }; break; }
	}
	for (const a of document.querySelectorAll('#nav a'))
		a.classList.toggle('active', !!found && a.dataset.nav === found.nav);
	clear(app);
	if (!found) {
		document.title = 'Not found · perflab';
		app.appendChild(h('div', { class: 'empty' },
			h('strong', null, 'There is no page at ' + path + '. '),
			'Go to the ', h('a', { href: '#/experiments' }, 'experiment queue'), '.'));
		return;
	}
	const ctx = {
		el: app, params: found.params, query, cleanup: [],
		onEvent: (fn) => listeners.add(fn),
		get stale() { return seq !== renderSeq; },
	};
	current = { mod: found.mod, ctx };
	try {
		await Promise.all([loadMetricDefs(), loadFailureReasons()]);
		await found.mod.render(ctx);
	} catch (e) {
		if (seq !== renderSeq) return;
		showError(app, e);
	}
	app.dataset.ready = String(seq);
	window.dispatchEvent(new CustomEvent('perflab-rendered', { detail: { path } }));
}

function showError(el, e) {
	clear(el);
	el.appendChild(errorBox(e));
}

// Live updates: one SSE stream for the whole app; pages subscribe.
const live = document.getElementById('live');
let stopEvents = null;
function startEvents() {
	if (stopEvents) stopEvents();
	stopEvents = subscribe((ev) => {
		for (const fn of listeners) fn(ev);
	}, (state) => {
		live.textContent = state === 'live' ? '● live' : state === 'reconnecting' ? '○ reconnecting…' : '○ offline';
		live.classList.toggle('on', state === 'live');
		live.dataset.state = state;
	});
}

document.getElementById('key-button').addEventListener('click', async () => {
	if (await askKey(getKey() ? 'Replace the API key kept in this browser.' : undefined)) {
		startEvents();
		render();
	}
});
window.addEventListener('hashchange', render);
window.addEventListener('perflab-key', () => {
	document.getElementById('key-button').textContent = getKey() ? 'API key ✓' : 'API key';
});
document.getElementById('key-button').textContent = getKey() ? 'API key ✓' : 'API key';
window.perflab = { render, setKey };

// No key yet: the first request that answers 401 opens the key dialog
// (a lab started with --public-read needs none for reading).
startEvents();
render();
