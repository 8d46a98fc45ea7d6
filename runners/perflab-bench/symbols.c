// SPDX-License-Identifier: MIT
/*
 * Symbol tables for the profiler. Everything here runs outside the
 * measured hot loop (kallsyms at the end, maps when a pid is first seen).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"

#define UNKNOWN "[unknown]"

struct sym {
	uint64_t addr;
	uint64_t size;		/* 0 = up to the next symbol */
	const char *name;
	const char *dso;
};

struct symtab {
	struct sym *v;
	size_t n, cap;
	char **strs;		/* owned strings */
	size_t nstrs, capstrs;
};

static int tab_push(struct symtab *t, uint64_t addr, uint64_t size,
		    const char *name, const char *dso)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		struct sym *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return -1;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct sym){ addr, size, name, dso };
	return 0;
}

static char *tab_strdup(struct symtab *t, const char *s)
{
	char *d;

	if (t->nstrs == t->capstrs) {
		size_t cap = t->capstrs ? t->capstrs * 2 : 1024;
		char **v = realloc(t->strs, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->strs = v;
		t->capstrs = cap;
	}
	d = strdup(s);
	if (d)
		t->strs[t->nstrs++] = d;
	return d;
}

static void tab_free(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Greatest symbol at or below @ip, honouring sizes when known. */
static const struct sym *tab_find(const struct symtab *t, uint64_t ip)
{
	size_t lo = 0, hi = t->n;
	const struct sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->v[lo - 1];
	if (s->size && ip >= s->addr + s->size)
		return NULL;
	return s;
}

/* ---- kernel ---------------------------------------------------------- */

struct ksyms {
	struct symtab t;
	const char **mods;	/* "[null_blk]" names, owned by t */
	size_t nmods;
};

static const char *module_dso(struct ksyms *k, const char *mod)
{
	const char **v, *d;
	char buf[160];
	size_t i;

	snprintf(buf, sizeof(buf), "[%s]", mod);
	for (i = k->nmods; i > 0; i--)
		if (!strcmp(k->mods[i - 1], buf))
			return k->mods[i - 1];
	v = realloc(k->mods, (k->nmods + 1) * sizeof(*v));
	if (!v)
		return NULL;
	k->mods = v;
	d = tab_strdup(&k->t, buf);
	if (d)
		k->mods[k->nmods++] = d;
	return d;
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *k;
	char line[512], name[256], mod[128], type;
	unsigned long long addr;
	FILE *f = fopen(path ? path : "/proc/kallsyms", "re");

	if (!f)
		return NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		goto out;
	while (fgets(line, sizeof(line), f)) {
		const char *dso = "[kernel.kallsyms]", *nm;
		int n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type,
			       name, mod);

		if (n < 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		/* Padding before functions (CONFIG_FUNCTION_PADDING_CFI). */
		if (!strncmp(name, "__pfx_", 6))
			continue;
		if (n == 4)
			dso = module_dso(k, mod);
		nm = tab_strdup(&k->t, name);
		if (!dso || !nm || tab_push(&k->t, addr, 0, nm, dso))
			break;
	}
	qsort(k->t.v, k->t.n, sizeof(*k->t.v), cmp_sym);
out:
	fclose(f);
	return k;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	tab_free(&k->t);
	free(k->mods);
	free(k);
}

size_t ksyms_count(const struct ksyms *k)
{
	return k ? k->t.n : 0;
}

struct sym_hit ksyms_lookup(const struct ksyms *k, uint64_t ip)
{
	const struct sym *s = k ? tab_find(&k->t, ip) : NULL;

	if (!s)
		return (struct sym_hit){ "[kernel.kallsyms]", UNKNOWN };
	return (struct sym_hit){ s->dso, s->name };
}

/* ---- user ------------------------------------------------------------ */

struct elfsyms {
	char *path;
	const char *base;	/* basename, the dso name */
	struct symtab t;	/* addresses are ELF virtual addresses */
	GElf_Phdr *load;	/* PT_LOAD headers, to map file offsets */
	size_t nload;
	bool ok;
	struct elfsyms *next;
};

struct umap {
	uint64_t start, end, pgoff;
	const char *path;	/* file path, or "[vdso]", "[anon]" */
	struct elfsyms *elf;	/* loaded at the first lookup */
	bool tried;
};

struct upid {
	int pid;
	struct umap *maps;
	size_t nmaps;
	struct upid *next;
};

#define UPID_BUCKETS 256

struct usyms {
	struct upid *pids[UPID_BUCKETS];
	struct elfsyms *elves;
	struct symtab names;	/* owns map names like "[vdso]" */
};

struct usyms *usyms_new(void)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	return calloc(1, sizeof(struct usyms));
}

static int read_symbols(struct elfsyms *e, Elf *elf, Elf_Scn *scn,
			GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (i = 0; data && i < n; i++) {
		GElf_Sym sym;
		const char *nm;

		if (!gelf_getsym(data, i, &sym) || !sym.st_value ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		nm = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!nm || !*nm)
			continue;
		nm = tab_strdup(&e->t, nm);
		if (!nm || tab_push(&e->t, sym.st_value, sym.st_size, nm, e->base))
			return -1;
	}
	return 0;
}

static void load_elf(struct elfsyms *e)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	GElf_Shdr sh, dsh, tsh;
	size_t i, nph;
	Elf *elf;
	int fd = open(e->path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nph))
		goto out;
	e->load = calloc(nph ? nph : 1, sizeof(*e->load));
	for (i = 0; e->load && i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD)
			e->load[e->nload++] = ph;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			tab = scn;
			tsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	if (tab)
		read_symbols(e, elf, tab, &tsh);
	if (!e->t.n && dyn)
		read_symbols(e, elf, dyn, &dsh);
	qsort(e->t.v, e->t.n, sizeof(*e->t.v), cmp_sym);
	e->ok = true;
out:
	if (elf)
		elf_end(elf);
	close(fd);
}

static struct elfsyms *get_elf(struct usyms *u, const char *path)
{
	struct elfsyms *e;
	const char *slash;

	for (e = u->elves; e; e = e->next)
		if (!strcmp(e->path, path))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->path = strdup(path);
	if (!e->path) {
		free(e);
		return NULL;
	}
	slash = strrchr(e->path, '/');
	e->base = slash ? slash + 1 : e->path;
	load_elf(e);
	e->next = u->elves;
	u->elves = e;
	return e;
}

static int add_map(struct usyms *u, struct upid *p, const char *line)
{
	unsigned long long start, end, pgoff;
	char perms[8], path[4096] = "";
	struct umap *m;

	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095[^\n]", &start, &end,
		   perms, &pgoff, path) < 4 || perms[2] != 'x')
		return 0;
	m = realloc(p->maps, (p->nmaps + 1) * sizeof(*m));
	if (!m)
		return -1;
	p->maps = m;
	m = &p->maps[p->nmaps++];
	/* ELF tables are read at lookup time, after the measured window. */
	*m = (struct umap){ start, end, pgoff, NULL, NULL, false };
	m->path = tab_strdup(&u->names, path[0] ? path : "[anon]");
	return m->path ? 0 : -1;
}

void usyms_note_pid(struct usyms *u, int pid)
{
	struct upid **b = &u->pids[(unsigned int)pid % UPID_BUCKETS], *p;
	char path[64], line[4400];
	FILE *f;

	for (p = *b; p; p = p->next)
		if (p->pid == pid)
			return;
	p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->pid = pid;
	p->next = *b;
	*b = p;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (add_map(u, p, line))
			break;
	fclose(f);
}

static struct sym_hit elf_lookup(const struct umap *m, uint64_t ip)
{
	const struct elfsyms *e = m->elf;
	uint64_t off = ip - m->start + m->pgoff, vaddr = 0;
	const struct sym *s;
	size_t i;
	bool found = false;

	for (i = 0; i < e->nload; i++) {
		const GElf_Phdr *ph = &e->load[i];

		if (off >= ph->p_offset && off < ph->p_offset + ph->p_filesz) {
			vaddr = off - ph->p_offset + ph->p_vaddr;
			found = true;
			break;
		}
	}
	s = found ? tab_find(&e->t, vaddr) : NULL;
	return (struct sym_hit){ e->base, s ? s->name : UNKNOWN };
}

struct sym_hit usyms_lookup(struct usyms *u, int pid, uint64_t ip)
{
	struct upid *p;
	size_t i;

	for (p = u->pids[(unsigned int)pid % UPID_BUCKETS]; p; p = p->next)
		if (p->pid == pid)
			break;
	for (i = 0; p && i < p->nmaps; i++) {
		struct umap *m = &p->maps[i];
		const char *slash;

		if (ip < m->start || ip >= m->end)
			continue;
		if (!m->tried && m->path[0] == '/')
			m->elf = get_elf(u, m->path);
		m->tried = true;
		if (m->elf && m->elf->ok)
			return elf_lookup(m, ip);
		slash = strrchr(m->path, '/');
		return (struct sym_hit){ slash ? slash + 1 : m->path, UNKNOWN };
	}
	return (struct sym_hit){ UNKNOWN, UNKNOWN };
}

void usyms_free(struct usyms *u)
{
	struct elfsyms *e, *en;
	struct upid *p, *pn;
	size_t i;

	if (!u)
		return;
	for (i = 0; i < UPID_BUCKETS; i++)
		for (p = u->pids[i]; p; p = pn) {
			pn = p->next;
			free(p->maps);
			free(p);
		}
	for (e = u->elves; e; e = en) {
		en = e->next;
		tab_free(&e->t);
		free(e->load);
		free(e->path);
		free(e);
	}
	tab_free(&u->names);
	free(u);
}
