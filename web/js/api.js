// perflab web: API client. Every request carries the API key kept in the
// browser (localStorage 'perflab.key') as "Authorization: Bearer". A 401
// opens the key dialog and retries once the user has entered a key.
import { h } from './util.js';

const KEY = 'perflab.key';

export class ApiError extends Error {
	constructor(status, message, path) {
		super(message);
		this.status = status;
		this.path = path;
	}
}

export function getKey() {
	try { return localStorage.getItem(KEY) || ''; } catch { return ''; }
}
export function setKey(k) {
	try {
		if (k) localStorage.setItem(KEY, k);
		else localStorage.removeItem(KEY);
	} catch { /* storage disabled: key lives for this page only */ }
	window.dispatchEvent(new Event('perflab-key'));
}

let keyPrompt = null;

// Show the key dialog; resolves true when a key was saved, false if cancelled.
export function askKey(reason) {
	if (keyPrompt) return keyPrompt;
	keyPrompt = new Promise((resolve) => {
		const input = h('input', {
			type: 'password', id: 'key-input', autocomplete: 'off', spellcheck: 'false',
			placeholder: 'plk_…', value: getKey(), size: 48,
		});
		const done = (ok) => {
			dlg.close();
			dlg.remove();
			keyPrompt = null;
			resolve(ok);
		};
		const dlg = h('dialog', { id: 'key-dialog', class: 'key-dialog' },
			h('form', {
				method: 'dialog',
				onsubmit: (e) => {
					e.preventDefault();
					const v = input.value.trim();
					if (!v) return;
					setKey(v);
					done(true);
				},
			},
			h('h2', null, 'API key'),
			h('p', null, reason || 'This lab needs an API key to read and change data.'),
			h('p', { class: 'muted' },
				'Ask an admin for one (they create it with ',
				h('code', null, 'perflabd key create --role submit NAME'),
				'). It is kept in this browser only (localStorage) and sent as ',
				h('code', null, 'Authorization: Bearer'), '.'),
			h('label', null, 'Key ', input),
			h('div', { class: 'buttons' },
				h('button', { type: 'submit', id: 'key-save', class: 'primary' }, 'Save key'),
				h('button', { type: 'button', onclick: () => done(false) }, 'Cancel'),
				getKey() ? h('button', { type: 'button', id: 'key-forget', onclick: () => { setKey(''); done(false); location.reload(); } }, 'Forget the saved key') : null)));
		document.body.appendChild(dlg);
		dlg.addEventListener('cancel', () => done(false));
		dlg.showModal();
		input.focus();
	});
	return keyPrompt;
}

async function errorOf(res, path) {
	let msg = res.status + ' ' + res.statusText;
	try {
		const t = await res.text();
		try {
			const j = JSON.parse(t);
			if (j && j.error) msg = String(j.error);
		} catch {
			if (t) msg = t.slice(0, 300);
		}
	} catch { /* body unreadable */ }
	return new ApiError(res.status, msg, path);
}

// api(path, {method, body, json, raw, query, headers}) -> parsed JSON (or
// text when raw). Throws ApiError.
export async function api(path, opts = {}) {
	let url = path;
	if (opts.query) {
		const q = new URLSearchParams();
		for (const [k, v] of Object.entries(opts.query))
			if (v !== undefined && v !== null && v !== '') q.set(k, v);
		const s = q.toString();
		if (s) url += (url.includes('?') ? '&' : '?') + s;
	}
	for (let attempt = 0; ; attempt++) {
		const headers = Object.assign({}, opts.headers || {});
		const key = getKey();
		if (key) headers.Authorization = 'Bearer ' + key;
		let body = opts.body;
		if (opts.json !== undefined) {
			body = JSON.stringify(opts.json);
			headers['Content-Type'] = 'application/json';
		}
		let res;
		try {
			res = await fetch(url, { method: opts.method || 'GET', headers, body, signal: opts.signal });
		} catch (e) {
			if (e.name === 'AbortError') throw e;
			throw new ApiError(0, 'cannot reach perflabd (' + e.message + '); is the daemon running?', path);
		}
		if (res.status === 401 && attempt < 2 && !opts.noPrompt) {
			const why = key
				? 'The saved API key was refused (401). Enter a valid key.'
				: 'This lab needs an API key (the server answered 401).';
			if (await askKey(why)) continue;
		}
		if (!res.ok) throw await errorOf(res, path);
		if (res.status === 204) return null;
		if (opts.raw) return await res.text();
		const t = await res.text();
		if (!t) return null;
		try {
			return JSON.parse(t);
		} catch {
			throw new ApiError(res.status, 'the server sent something that is not JSON', path);
		}
	}
}

// Server-sent events over fetch (EventSource cannot send Authorization).
// onEvent({event, data}) with data parsed as JSON when it is JSON.
// Returns a stop() function. Reconnects with backoff.
export function subscribe(onEvent, onState) {
	let stopped = false;
	let ctl = null;
	let delay = 1000;
	let lastId = '';
	const state = (s) => onState && onState(s);

	async function run() {
		while (!stopped) {
			ctl = new AbortController();
			try {
				const headers = { Accept: 'text/event-stream' };
				const key = getKey();
				if (key) headers.Authorization = 'Bearer ' + key;
				if (lastId) headers['Last-Event-ID'] = lastId;
				const res = await fetch('/api/v1/events', { headers, signal: ctl.signal, cache: 'no-store' });
				if (res.status === 401) {
					// The page's own requests ask for the key; wait for it.
					state('unauthorized');
					await new Promise((r) => window.addEventListener('perflab-key', r, { once: true }));
					continue;
				}
				if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
				state('live');
				delay = 1000;
				const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
				let buf = '';
				for (;;) {
					const { value, done } = await reader.read();
					if (done) break;
					buf += value.replace(/\r\n?/g, '\n');
					let i;
					while ((i = buf.indexOf('\n\n')) >= 0) {
						const block = buf.slice(0, i);
						buf = buf.slice(i + 2);
						const ev = { event: 'message', data: '' };
						const data = [];
						for (const line of block.split('\n')) {
							if (!line || line[0] === ':') continue;
							const c = line.indexOf(':');
							const f = c < 0 ? line : line.slice(0, c);
							let v = c < 0 ? '' : line.slice(c + 1);
							if (v[0] === ' ') v = v.slice(1);
							if (f === 'event') ev.event = v;
							else if (f === 'data') data.push(v);
							else if (f === 'id') lastId = v;
						}
						if (!data.length) continue;
						ev.data = data.join('\n');
						try { ev.data = JSON.parse(ev.data); } catch { /* text event */ }
						try { onEvent(ev); } catch (e) { console.warn('event handler', e); }
					}
				}
				throw new Error('stream ended');
			} catch (e) {
				if (stopped || (e && e.name === 'AbortError')) return;
				state('reconnecting');
				await new Promise((r) => setTimeout(r, delay));
				delay = Math.min(delay * 2, 15000);
			}
		}
	}
	run();
	return () => {
		stopped = true;
		if (ctl) ctl.abort();
	};
}
