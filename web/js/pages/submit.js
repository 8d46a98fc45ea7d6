// Submit: paste or upload a patch (git format-patch mbox or a plain diff,
// one or a series), pick base / runs / label -> POST /api/v1/patches.
import { h, clear, link, arr } from '../util.js';
import { api } from '../api.js';
import { errorBox } from '../widgets.js';

export async function render(ctx) {
	document.title = 'Submit · perflab';
	const root = h('div', { id: 'submit' });
	ctx.el.appendChild(root);
	root.appendChild(h('h1', null, 'Submit a patch'));
	root.appendChild(h('p', { class: 'muted' },
		'The lab builds the base tree with and without the patch, runs both interleaved on one host (A B B A …) and compares them. ',
		'From a shell: ', h('code', null, 'perflab submit FILE.patch --runs 10')));

	const text = h('textarea', { id: 'patch-text', rows: 18, spellcheck: 'false', placeholder: 'Paste the output of git format-patch (one patch or a series), or a unified diff…' });
	const file = h('input', { type: 'file', id: 'patch-file', accept: '.patch,.diff,.mbox,.txt,text/plain', onchange: async () => {
		const f = file.files && file.files[0];
		if (f) text.value = await f.text();
	} });
	const base = h('select', { id: 'base' }, h('option', { value: '' }, 'default base'));
	const runs = h('input', { type: 'number', id: 'runs', min: 1, max: 100, value: 10, style: { width: '6em' } });
	const label = h('input', { type: 'text', id: 'label', placeholder: 'any host', list: 'labels' });
	const labels = h('datalist', { id: 'labels' });
	const title = h('input', { type: 'text', id: 'title', placeholder: 'defaults to the patch subject', size: 60 });
	const out = h('div', { id: 'submit-result' });
	const btn = h('button', { type: 'submit', class: 'primary', id: 'submit-button' }, 'Submit');
	const form = h('form', { id: 'submit-form', onsubmit: async (e) => {
		e.preventDefault();
		clear(out);
		if (!text.value.trim()) {
			out.appendChild(h('div', { class: 'error' }, 'Paste a patch or choose a file first.'));
			return;
		}
		btn.disabled = true;
		try {
			const r = await api('/api/v1/patches', {
				method: 'POST', body: text.value, headers: { 'Content-Type': 'text/plain; charset=utf-8' },
				query: { base: base.value, runs: runs.value, label: label.value.trim(), title: title.value.trim() },
			});
			const id = r && (r.experiment_id ?? r.id);
			out.appendChild(h('div', { class: 'notice' }, 'Submitted: ', h('a', { href: link('/experiments/' + id), id: 'new-experiment' }, 'experiment #' + id), '. Opening it…'));
			setTimeout(() => { location.hash = link('/experiments/' + id); }, 600);
		} catch (err) {
			out.appendChild(err.status === 400 || err.status === 422
				? h('div', { class: 'error', role: 'alert' }, h('strong', null, 'The patch was refused: '), err.message, h('div', null, 'Check that it is a git format-patch mail or a unified diff.'))
				: errorBox(err));
		} finally {
			btn.disabled = false;
		}
	} },
	h('div', { class: 'form-grid' },
		h('label', { for: 'patch-file' }, 'Patch file'), file,
		h('label', { for: 'patch-text' }, 'or paste'), text,
		h('label', { for: 'base' }, 'Base tree'), base,
		h('label', { for: 'runs' }, 'Runs per variant'), h('span', null, runs, h('span', { class: 'muted' }, ' runs (10 resolve ≈ 0.1 % on a quiet host; more if inconclusive)')),
		h('label', { for: 'label' }, 'Host label'), h('span', null, label, labels),
		h('label', { for: 'title' }, 'Title'), title,
		h('span'), h('span', null, btn)));
	root.append(form, out);

	// Bases and labels are optional helpers: the form works without them.
	api('/api/v1/bases').then((r) => {
		for (const b of arr(r, 'bases', 'items')) base.appendChild(h('option', { value: b.name }, b.name + (b.tree ? ' (' + b.tree + (b.ref ? ' ' + b.ref : '') + ')' : '')));
	}).catch(() => {});
	api('/api/v1/hosts').then((r) => {
		const set = new Set();
		for (const x of arr(r, 'hosts', 'items')) for (const l of arr(x.labels)) set.add(String(l));
		for (const l of set) labels.appendChild(h('option', { value: l }));
	}).catch(() => {});
}
