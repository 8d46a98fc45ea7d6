/* SPDX-License-Identifier: MIT */
/*
 * lava_template: a LAVA job definition from an admin's template, through
 * an emitter, never by pasting text.
 *
 * A template is a LAVA job definition written as JSON (files in dist/lava/;
 * JSON is YAML's flow style, which LAVA reads). It is parsed into a tree;
 * every string in it may name variables as ${name}:
 *   - a string that is exactly "${name}" becomes the variable's value,
 *     whatever its type (a number, a list of tags, an object);
 *   - elsewhere "${name}" is replaced inside the string by the value of a
 *     string or integer variable;
 *   - "$${" is a literal "${" (iPXE's and the shell's own variables).
 * The tree is then written back with jansson (JSON_ENSURE_ASCII, so YAML
 * never sees a raw non-ASCII byte, which PyYAML may fold or refuse). A
 * value therefore lands inside one quoted scalar whatever it contains:
 * it cannot close the string, add a key or start an action. What a value
 * means where it lands (a kernel command line inside QEMU's -append "...")
 * is checked by the caller (lava.c); here every substituted string must
 * be printable ASCII, and an unknown variable, a "${" without "}", or a
 * template that is not a JSON object with "actions" is an error.
 */
#ifndef PERFLAB_LAVA_TEMPLATE_H
#define PERFLAB_LAVA_TEMPLATE_H

#include <stddef.h>
#include <jansson.h>

#define LAVA_TEMPLATE_MAX (256u << 10)

/* Parse and check a template's text: the tree, or NULL with err. */
json_t *lava_template_parse(const char *text, char *err, size_t errlen);

/*
 * Names of the variables @tmpl uses, as a JSON array of strings (for
 * checking a template against what perflab provides); NULL on error.
 */
json_t *lava_template_vars(const json_t *tmpl);

/*
 * Render @tmpl with @vars (an object name -> value): the definition
 * text, heap, or NULL with err.
 */
char *lava_template_render(const json_t *tmpl, const json_t *vars, char *err,
			   size_t errlen);

#endif
