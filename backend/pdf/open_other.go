//go:build !unix

package pdf

import "os"

// openNonblock is 0 where there are no FIFOs to block on open.
const openNonblock = 0

func clearNonblock(*os.File) {}
