// SPDX-License-Identifier: GPL-2.0
/* The banner printed at boot. */
#include <generated/utsrelease.h>

#define LINUX_COMPILE_BY "klang"

const char linux_banner[] =
	"Linux version " UTS_RELEASE " (" LINUX_COMPILE_BY ") #1 SMP\n";
