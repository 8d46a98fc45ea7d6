/* SPDX-License-Identifier: MIT */
/*
 * The roles an API key can have. The lab's trust rules (trust.h) decide
 * by role; the HTTP layer's routes list the roles they accept.
 */
#ifndef PERFLAB_LAB_ROLES_H
#define PERFLAB_LAB_ROLES_H

enum {
	ROLE_NONE = 0,
	ROLE_SUBMIT = 1 << 0,
	ROLE_ADMIN = 1 << 1,
	ROLE_RUNNER = 1 << 2,
};

#endif
